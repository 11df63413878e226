/** The Firecrawl document mapper lives in the scrape domain (the worker's webhooks use it too): scrape/firecrawl-document.ts. */
export * from '../../scrape/firecrawl-document';
