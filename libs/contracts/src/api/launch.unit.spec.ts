import { describe, expect, it } from '@jest/globals';
import type * as z from 'zod';
import { validationDetails } from './errors.js';
import { isReturnUrlAllowed, launchGameRequest, launchGameResponse, normaliseLanguageTag } from './launch.js';

const valid = {
  playerId: 'player_42',
  providerId: 7,
  gameId: 1001,
  language: 'en',
  returnUrl: 'https://casino.example/lobby',
  isStreamer: false,
};

function problems(overrides: Record<string, unknown>, without: string[] = []): string[] {
  const body: Record<string, unknown> = { ...valid, ...overrides };
  for (const key of without) delete body[key];
  const result = launchGameRequest.safeParse(body);
  return result.success
    ? []
    : validationDetails(result.error as z.ZodError).map((detail) => `${detail.path}: ${detail.message}`);
}

describe('launch: every field of spec §2.3 is required', () => {
  it('accepts the documented body', () => expect(launchGameRequest.parse(valid)).toEqual(valid));
  it.each(['playerId', 'providerId', 'gameId', 'language', 'returnUrl', 'isStreamer'])(
    'refuses a body without %s',
    (key) => {
      expect(problems({}, [key])[0]).toMatch(new RegExp(`^${key}: `));
    },
  );
  it('refuses unknown keys', () => expect(problems({ bonus: true })).toEqual(['bonus: unknown field "bonus"']));
});

describe('launch: playerId 1–50 of A–Z a–z 0–9 _ (spec §2.3)', () => {
  it('accepts 50 characters', () => expect(problems({ playerId: 'Z'.repeat(50) })).toEqual([]));
  it.each(['Z'.repeat(51), 'a-b', ''])('refuses %j', (playerId) =>
    expect(problems({ playerId })).toEqual(['playerId: playerId must be 1–50 characters of A–Z, a–z, 0–9 or _']),
  );
});

describe('launch: gameId is one positive integer here (spec §2.3)', () => {
  it.each([[1001, 1002], 0, '1001'])('refuses %j', (gameId) => expect(problems({ gameId })[0]).toMatch(/^gameId: /));
});

describe('launch: language is a 2–3 letter code with optional script and region', () => {
  it.each([
    ['en', 'en'],
    ['ko', 'ko'],
    ['zh-CN', 'zh-CN'],
    ['zh_cn', 'zh-CN'],
    ['EN-us', 'en-US'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['fil', 'fil'],
  ])('%s → %s', (language, expected) =>
    expect(launchGameRequest.parse({ ...valid, language }).language).toBe(expected),
  );
  it.each(['e', 'english', 'en-', 'en-USA', '12', 'en US', ''])('refuses %j', (language) => {
    expect(problems({ language })).toEqual(['language: language must be a language code such as en, ko or zh-CN']);
    expect(normaliseLanguageTag(language)).toBeUndefined();
  });
});

describe('launch: returnUrl is an absolute http(s) URL (decisions.md D19)', () => {
  it.each(['http://casino.example', 'https://casino.example:8443/lobby?x=1#top'])('accepts %s', (returnUrl) =>
    expect(problems({ returnUrl })).toEqual([]),
  );
  it.each([
    'javascript:alert(1)',
    'ftp://casino.example/',
    'data:text/html,hi',
    '/lobby',
    'casino.example',
    'https://user:secret@casino.example/',
    'https://',
  ])('refuses %s', (returnUrl) => expect(problems({ returnUrl })[0]).toMatch(/^returnUrl: /));
  it('refuses a URL longer than 2048 characters', () =>
    expect(problems({ returnUrl: `https://casino.example/${'a'.repeat(2048)}` })[0]).toMatch(/^returnUrl: /));
});

describe('isReturnUrlAllowed: within the operator’s allowed origins when it has any (decisions.md D19)', () => {
  const origins = ['https://casino.example', 'https://m.casino.example:8443'];
  it('allows any http(s) URL when the operator lists no origin', () =>
    expect(isReturnUrlAllowed('https://elsewhere.example/x', [])).toBe(true));
  it('allows a URL of a listed origin, the default port included', () => {
    expect(isReturnUrlAllowed('https://casino.example/lobby', origins)).toBe(true);
    expect(isReturnUrlAllowed('https://casino.example:443/lobby', origins)).toBe(true);
    expect(isReturnUrlAllowed('https://m.casino.example:8443/', origins)).toBe(true);
  });
  it('refuses another scheme, host or port', () => {
    expect(isReturnUrlAllowed('http://casino.example/lobby', origins)).toBe(false);
    expect(isReturnUrlAllowed('https://casino.example.evil.example/', origins)).toBe(false);
    expect(isReturnUrlAllowed('https://m.casino.example/', origins)).toBe(false);
  });
  it('refuses what is not an http(s) URL even without origins', () => {
    expect(isReturnUrlAllowed('javascript:alert(1)', [])).toBe(false);
    expect(isReturnUrlAllowed('not a url', [])).toBe(false);
  });
});

describe('launch: isStreamer is a strict JSON boolean (spec §2.3)', () => {
  it('accepts true', () => expect(launchGameRequest.parse({ ...valid, isStreamer: true }).isStreamer).toBe(true));
  it.each(['true', 1, 0, 'false', null])('refuses %j', (isStreamer) =>
    expect(problems({ isStreamer })).toEqual(['isStreamer: isStreamer must be true or false (a JSON boolean)']),
  );
});

describe('launch: optional currency is an ISO 4217 code (decisions.md D6)', () => {
  it.each(['KRW', 'EUR', 'KWD'])('accepts %s', (currency) => expect(problems({ currency })).toEqual([]));
  it.each(['eur', 'EURO', 'XYZ', 'ZZZ'])('refuses %s', (currency) =>
    expect(problems({ currency })[0]).toMatch(/^currency: /),
  );
});

describe('launch response: data is the launch URL string (spec §4.3)', () => {
  it('accepts a URL and refuses an object', () => {
    expect(
      launchGameResponse.safeParse({ success: true, message: 'OK', data: 'http://localhost:8081/launch?token=abc' })
        .success,
    ).toBe(true);
    expect(
      launchGameResponse.safeParse({ success: true, message: 'OK', data: { url: 'http://localhost:8081/launch' } })
        .success,
    ).toBe(false);
  });
});

describe('launch: demo is an optional JSON boolean (play money, no wallet)', () => {
  it('is absent by default and kept when given', () => {
    expect(launchGameRequest.parse(valid).demo).toBeUndefined();
    expect(launchGameRequest.parse({ ...valid, demo: true }).demo).toBe(true);
  });
  it.each(['true', 1, null])('refuses %j', (demo) =>
    expect(problems({ demo })).toEqual(['demo: demo must be true or false (a JSON boolean)']),
  );
});
