/** What a document converter returns (pdf.ts, docx.ts), before the scrape's formats pick from it. */
export type DocumentKind = 'pdf' | 'docx';

export interface DocumentFacts {
  title: string | null;
  author: string | null;
  /** ISO 8601, from the document's own properties. */
  creation_date: string | null;
  modification_date: string | null;
  /** The program that wrote the document (a PDF's Producer, a DOCX's Application). */
  producer: string | null;
  /** Pages as the document declares them (a DOCX: as its writer last counted them; null when it did not). */
  page_count: number | null;
  /** Pages read (a PDF: at most `max_pages`; a DOCX is read whole: null). */
  pages_read: number | null;
}

export interface DocumentConversion {
  kind: DocumentKind;
  markdown: string;
  text: string;
  metadata: DocumentFacts;
}
