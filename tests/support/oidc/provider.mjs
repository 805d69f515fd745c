// A real OpenID Connect provider for the external sign-in tests (oidc-provider, its development
// login and consent pages): `node provider.mjs '<clients JSON>' [port]` listens on a loopback port
// (0, the default: a free one) and prints {"issuer": ...} once it serves. Any login name signs in, with any password: its subject is
// the name, its email `<name>@example.org`, verified unless the name starts with "unverified".
import http from 'node:http';
import Provider from 'oidc-provider';

const clients = JSON.parse(process.argv[2] || '[]');
const server = http.createServer();
server.listen(Number(process.argv[3] || 0), '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients,
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false, // the ID token carries the email and name the scopes ask for
    cookies: { keys: ['tabula-test-only'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, email: `${sub}@example.org`, email_verified: !sub.startsWith('unverified'), name: sub };
        },
      };
    },
  });
  server.on('request', provider.callback());
  process.stdout.write(JSON.stringify({ issuer }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
