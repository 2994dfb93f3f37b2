import { describe, expect, it } from 'vitest';
import { redactSecrets, redactUrl } from './redact-url';

describe('URLs as they are printed', () => {
  it('lose their user information up to the last @, whatever the password holds', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/inbox')).toBe('postgres://***@db:5432/inbox');
    expect(redactUrl('postgres://app:p#s?s/w@rd@db/inbox')).toBe('postgres://***@db/inbox');
    expect(redactUrl('https://token@reflexio.internal/')).toBe('https://***@reflexio.internal/');
    expect(redactUrl('https://reflexio.internal/api')).toBe('https://reflexio.internal/api');
  });

  it('lose a password or key given as a query parameter', () => {
    expect(redactUrl('postgres://db/inbox?sslmode=require&password=s3cret')).toBe(
      'postgres://db/inbox?sslmode=require&password=***',
    );
  });

  it('are taken out of an error message, the password decoded too', () => {
    const url = 'postgres://app:p%40ss%23word@db/inbox';
    expect(redactSecrets(`could not use ${url}: auth for p@ss#word failed`, url)).toBe(
      'could not use postgres://***@db/inbox: auth for *** failed',
    );
    expect(redactSecrets('see http://x:y@z/ and https://a@b/')).toBe(
      'see http://***@z/ and https://***@b/',
    );
  });
});
