import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';

/** The search attributes a scrape's execution carries, so an operator finds it in the Temporal UI. */
export const SEARCH_ATTRIBUTE_KEYS = {
  accountId: defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD),
  scrapeMode: defineSearchAttributeKey('ScrapeMode', SearchAttributeType.KEYWORD),
  targetHost: defineSearchAttributeKey('TargetHost', SearchAttributeType.KEYWORD),
  scrapeRunIds: defineSearchAttributeKey('ScrapeRunIds', SearchAttributeType.KEYWORD_LIST),
  templateId: defineSearchAttributeKey('TemplateId', SearchAttributeType.KEYWORD),
} as const;
