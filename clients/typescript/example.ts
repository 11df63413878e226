import { createScrapeApiClient, sessionCookie } from './src/index';

const baseUrl = process.env.SCRAPE_API_URL ?? 'http://127.0.0.1:3000';
const pageUrl = process.env.PAGE_URL ?? 'https://example.com/';

async function main(): Promise<void> {
  // 1. Sign up (or POST /api/auth/sign-in/email): the answer sets the session cookie.
  const anonymous = createScrapeApiClient(baseUrl);
  const signUp = await anonymous.POST('/api/auth/sign-up/email', {
    body: { email: `me-${Date.now()}@example.com`, password: 'a-long-password', name: 'Me' },
  });
  if (!signUp.data) throw new Error(`sign-up: ${signUp.response.status} ${JSON.stringify(signUp.error)}`);
  const account = createScrapeApiClient(baseUrl, { sessionCookie: sessionCookie(signUp.response) });

  // 2. An API key (its secret is shown once, here).
  const created = await account.POST('/api/users/create-api-keys', { body: { name: 'laptop', prefix: 'sk_' } });
  if (!created.data) throw new Error(`create-api-keys: ${created.response.status} ${JSON.stringify(created.error)}`);
  const api = createScrapeApiClient(baseUrl, { apiKey: created.data.key });

  // 3. Scrape a page: the first <h1>.
  const scrape = await api.POST('/webhook/unblocker', { body: { url: pageUrl, selectors: ['h1'] } });
  if (scrape.response.status !== 200 || !scrape.data || !('data' in scrape.data)) throw new Error(`scrape: ${scrape.response.status} ${JSON.stringify(scrape.error)}`);
  console.log('h1:', scrape.data.data?.[0]?.results[0]?.text);

  // 4. A flow (here one scrape node), run and awaited (?wait=true).
  const flow = await api.POST('/flows', {
    body: { name: 'title', nodes: [{ id: 'page', type: 'scrape', config: { url: pageUrl, selectors: ['h1'] } }] },
  });
  if (!flow.data) throw new Error(`create flow: ${flow.response.status} ${JSON.stringify(flow.error)}`);
  const run = await api.POST('/flows/{id}/runs', { params: { path: { id: flow.data.id }, query: { wait: true } } });
  if (run.response.status !== 200 || !run.data || !('nodes' in run.data)) throw new Error(`flow run: ${run.response.status} ${JSON.stringify(run.error)}`);
  console.log('flow run:', run.data.status, 'credits spent:', run.data.credits.spent);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
