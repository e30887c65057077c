import { strict as assert } from 'node:assert';
import { isGaiError } from '../../src/common/errors';
import { compileRedactPatterns, maskedLength, maskSecretText, REDACTED, SecretRedactor } from '../../src/common/redact';
import { isProviderCredentialVar, withoutSecretEnv } from '../../src/common/secretEnv';

// Realistic shapes; none of these are real credentials.
const ANTHROPIC = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEf';
const OPENAI = 'sk-proj-Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa';
const GITHUB = 'ghp_1234567890abcdefghijABCDEFGHIJ123456';
const GITHUB_PAT = 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz';
const SLACK = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const GOOGLE = 'AIzaSyA1234567890abcdefghijklmnopqrstuv';
const GITLAB = 'glpat-abcdefghij0123456789';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('SecretRedactor', () => {
  const redactor = new SecretRedactor();

  for (const [name, token] of Object.entries({ ANTHROPIC, OPENAI, GITHUB, GITHUB_PAT, SLACK, AWS, GOOGLE, GITLAB, JWT })) {
    it(`redacts ${name.toLowerCase()} tokens wherever they stand`, () => {
      const text = `failed (${token}) at "${token}", then ${token}.`;
      const out = redactor.redact(text);
      assert.ok(!out.includes(token), out);
      assert.equal(out.split(REDACTED).length - 1, 3, out);
    });
  }

  it('keeps ordinary words that merely start like tokens', () => {
    for (const text of ['sk-learn is a library', 'task-list', 'the AKIA prefix', 'eyJ alone', 'Bearer of bad news', 'password: ', 'see the api key docs']) {
      assert.equal(redactor.redact(text), text);
    }
  });

  it('keeps the scheme of Bearer and Basic credentials', () => {
    assert.equal(redactor.redact('Authorization header was Bearer abcdef0123456789xyz'), 'Authorization header was Bearer [redacted]');
    assert.equal(redactor.redact('Basic dXNlcjpwYXNzd29yZA=='), 'Basic [redacted]');
  });

  it('redacts the values of credential headers and fields in every usual notation', () => {
    const cases: Array<[string, string]> = [
      ['x-api-key: my-custom-key-1234', 'x-api-key: [redacted]'],
      ['{"x-api-key":"my-custom-key-1234","model":"m"}', '{"x-api-key":"[redacted]","model":"m"}'],
      ["{ 'x-api-key': 'abc12345678', other: 1 }", "{ 'x-api-key': '[redacted]', other: 1 }"],
      ['{\\"authorization\\":\\"Bearer tok123456789\\"}', '{\\"authorization\\":\\"[redacted]\\"}'],
      ['authorization: Bearer tok123456789', 'authorization: Bearer [redacted]'],
      ['api-key=abc12345678&model=x', 'api-key=[redacted]&model=x'],
      ['"apiKey": "abcdefgh12345"', '"apiKey": "[redacted]"'],
      ['"password":"hunter2hunter2"', '"password":"[redacted]"'],
      // Flags and placeholders are no credentials.
      ['{"text":"••••• (12 characters)","secret":true}', '{"text":"••••• (12 characters)","secret":true}'],
      ['"apiKey": null, password=false', '"apiKey": null, password=false'],
      // A schema or object under such a name is structure, not a value (JSON output stays valid).
      ['"secret": {\n  "type": "boolean"\n}', '"secret": {\n  "type": "boolean"\n}'],
      ['password: [1, 2]', 'password: [1, 2]'],
    ];
    for (const [input, expected] of cases) assert.equal(redactor.redact(input), expected, input);
  });

  it('redacts credentials inside URLs but keeps scheme and host', () => {
    assert.equal(redactor.redact('cannot connect to https://bob:s3cretpw@proxy.local:8080/v1'), 'cannot connect to https://[redacted]@proxy.local:8080/v1');
  });

  it('redacts registered values of any shape, with their URL- and JSON-escaped forms', () => {
    const key = 'my key/with+odd"chars';
    const custom = new SecretRedactor({ secrets: [key, undefined, 'short'] });
    assert.equal(custom.redact(`a ${key} b`), `a ${REDACTED} b`);
    assert.equal(custom.redact(`?k=${encodeURIComponent(key)}`), `?k=${REDACTED}`);
    assert.equal(custom.redact(JSON.stringify({ note: `said ${key}` })), `{"note":"said ${REDACTED}"}`);
    assert.equal(custom.redact('a short word'), 'a short word', 'values under 8 characters are not secrets');
    assert.ok(custom.containsKnownSecret(`prefix ${key}`));
    assert.ok(!custom.containsKnownSecret('nothing here'));
  });

  it('is idempotent: redacting twice changes nothing more', () => {
    const text = `401 {"error":{"message":"invalid x-api-key ${ANTHROPIC}"},"authorization":"Bearer ${OPENAI}"}`;
    const once = redactor.redact(text);
    assert.equal(redactor.redact(once), once);
    assert.ok(!once.includes(ANTHROPIC) && !once.includes(OPENAI));
  });

  it('applies the person\'s patterns, and tells secrets from ordinary text', () => {
    const custom = new SecretRedactor({ patterns: compileRedactPatterns(['ACME-[0-9]{6}', 'internal\\.example'], 'redact.patterns') });
    assert.equal(custom.redact('ticket ACME-123456 on internal.example'), `ticket ${REDACTED} on ${REDACTED}`);
    assert.ok(custom.isSecret('ACME-000001'));
    assert.ok(custom.isSecret(GITHUB));
    assert.ok(!custom.isSecret('hello world'));
    custom.setPatterns([]);
    assert.ok(!custom.isSecret('ACME-000001'));
  });
});

describe('compileRedactPatterns', () => {
  function configError(patterns: unknown[]): string {
    try {
      compileRedactPatterns(patterns, 'redact.patterns');
    } catch (error) {
      assert.ok(isGaiError(error, 'CONFIG'));
      return error.message;
    }
    assert.fail('expected a CONFIG error');
  }

  it('names the bad pattern and says why', () => {
    assert.match(configError(['ok', '(unclosed']), /^redact\.patterns\[1\]: not a valid regular expression/);
    assert.match(configError(['a*']), /^redact\.patterns\[0\]: matches the empty string/);
    assert.match(configError([42]), /^redact\.patterns\[0\]: expected a non-empty regular expression string/);
    assert.match(configError(['x'.repeat(501)]), /^redact\.patterns\[0\]: longer than 500 characters/);
    assert.match(configError(Array.from({ length: 101 }, () => 'x')), /^redact\.patterns: at most 100 patterns/);
  });
});

describe('masked secret text', () => {
  it('shows only the length, and the length can be read back', () => {
    assert.equal(maskSecretText('hunter2hunter2'), '••••• (14 characters)');
    assert.equal(maskSecretText('é'), '••••• (1 character)');
    assert.equal(maskedLength('••••• (14 characters)'), 14);
    assert.equal(maskedLength('hunter2'), undefined);
  });
});

describe('launched apps\' environment', () => {
  it('drops provider credentials and any variable holding a registered secret, keeps the rest', () => {
    const redactor = new SecretRedactor({ secrets: ['registered-secret-value'] });
    const env = withoutSecretEnv(
      {
        PATH: '/usr/bin',
        DISPLAY: ':99',
        ANTHROPIC_API_KEY: ANTHROPIC,
        ANTHROPIC_AUTH_TOKEN: 't',
        OPENAI_API_KEY: OPENAI,
        GEMINI_API_KEY: 'g',
        GOOGLE_API_KEY: GOOGLE,
        AZURE_OPENAI_API_KEY: 'a',
        MISTRAL_API_KEY: 'm',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
        MY_TOOL_HEADER: 'x-api-key: registered-secret-value',
        HOME: '/root',
      },
      (value) => redactor.containsKnownSecret(value),
    );
    assert.deepEqual(Object.keys(env).sort(), ['ANTHROPIC_BASE_URL', 'DISPLAY', 'HOME', 'PATH']);
  });

  it('knows the provider variables by name, case-insensitively', () => {
    assert.ok(isProviderCredentialVar('openai_api_key'));
    assert.ok(isProviderCredentialVar('GROQ_API_KEY'));
    assert.ok(!isProviderCredentialVar('MY_API_KEYBOARD'));
    assert.ok(!isProviderCredentialVar('PATH'));
  });
});
