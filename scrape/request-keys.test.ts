import { SCRAPE_REQUEST_KEYS } from './request-keys';
import { scrapeRequestSchema } from './request';

describe('SCRAPE_REQUEST_KEYS', () => {
  it('is exactly the scrape request schema\'s keys', () => {
    expect([...SCRAPE_REQUEST_KEYS].sort()).toEqual(Object.keys(scrapeRequestSchema.shape).sort());
  });
});
