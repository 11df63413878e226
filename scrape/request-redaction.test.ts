import { REDACTED, redactRequestSecrets } from './request-redaction';

describe('redactRequestSecrets', () => {
  it('keeps the shape and drops every secret: cookie values, credential headers, write texts, form values, a body', () => {
    const request = {
      url: 'https://example.com/login',
      cookies: [{ name: 'sid', value: 'cookie-secret' }],
      headers: { cookie: 'a=header-secret', Authorization: 'Bearer t0ken', 'x-api-key': 'k', 'accept-language': 'fr' },
      actions: [{ type: 'click', selector: '#user' }, { type: 'write', text: 'pa55word' }, { type: 'executeJavascript', script: 'fetch("/x?token=abc")' }],
      fill_form: { fields: { '#password': 'form-secret' }, submit: 'button' },
      body: 'user=me&password=body-secret',
      session: { name: 'members', save: true },
      formats: ['markdown'],
    };
    const stored = redactRequestSecrets(request);
    expect(JSON.stringify(stored)).not.toMatch(/cookie-secret|header-secret|t0ken|pa55word|token=abc|form-secret|body-secret/);
    expect(stored).toEqual({
      ...request,
      cookies: [{ name: 'sid', value: REDACTED }],
      headers: { cookie: REDACTED, Authorization: REDACTED, 'x-api-key': REDACTED, 'accept-language': 'fr' },
      actions: [{ type: 'click', selector: '#user' }, { type: 'write', text: REDACTED }, { type: 'executeJavascript', script: REDACTED }],
      fill_form: { fields: { '#password': REDACTED }, submit: 'button' },
      body: REDACTED,
    });
    expect(request.cookies[0]!.value).toBe('cookie-secret');
    expect(redactRequestSecrets(stored)).toEqual(stored);
  });

  it("redacts a crawl page template's scrape options", () => {
    expect(redactRequestSecrets({ scrape: { cookies: [{ name: 'a', value: 'b' }] } })).toEqual({ scrape: { cookies: [{ name: 'a', value: REDACTED }] } });
  });
});
