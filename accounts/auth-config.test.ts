import { trustedOrigins } from './auth-config';
import { parseConfig } from '../platform/config';

describe('trustedOrigins', () => {
  it('without BETTER_AUTH_URL trusts this machine on PORT under both loopback names (npm start prints 127.0.0.1)', () => {
    expect(trustedOrigins(parseConfig({ PORT: '3000' }))).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000']);
  });

  it('with BETTER_AUTH_URL trusts that origin and TRUSTED_ORIGINS only', () => {
    const config = parseConfig({ BETTER_AUTH_URL: 'https://api.example.com/base', TRUSTED_ORIGINS: 'https://console.example.com/, https://api.example.com' });
    expect(trustedOrigins(config)).toEqual(['https://api.example.com', 'https://console.example.com']);
  });
});
