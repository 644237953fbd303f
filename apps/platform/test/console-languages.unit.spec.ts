/**
 * The operator console speaks the game page's languages: each has every text of the console,
 * translated (at most a few words, such as "Median", are the same as in English), with the same
 * placeholders; every text the page and its scripts name exists in English.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
// The page modules themselves, as the browser loads them.
// @ts-expect-error: a plain JavaScript module of the console, without type declarations
import { LANGUAGES, languageOf, translator } from '../../../libs/gateway/service/console/assets/i18n.js';
// @ts-expect-error: a plain JavaScript module of the game page, without type declarations
import { SUPPORTED_LANGUAGES } from '../../../libs/game/service/public/i18n.js';

type Translate = (key: string, values?: Record<string, unknown>) => string;
const consoleTranslator = translator as (tag: string) => Translate;
const consoleLanguages = LANGUAGES as string[];
const CONSOLE = new URL('../../../libs/gateway/service/console/', import.meta.url);
const source = (path: string) => readFileSync(new URL(path, CONSOLE), 'utf8');

/** The keys of the English table, in the order written. */
const englishKeys = (() => {
  const english = /\n {2}en: \{\n([\s\S]*?)\n {2}\},/.exec(source('assets/i18n.js'))?.[1] ?? '';
  return [...english.matchAll(/^ {4}(\w+):/gm)].map((match) => match[1] as string);
})();
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the operator console’s languages', () => {
  it('are English and every language of the game page', () => {
    expect([...consoleLanguages].sort()).toEqual([...new Set(['en', ...(SUPPORTED_LANGUAGES as string[])])].sort());
    expect((languageOf as (tag: string) => string)('pt-BR')).toBe('pt');
    expect((languageOf as (tag: string) => string)('fr')).toBe('en');
  });

  it.each(consoleLanguages.filter((language) => language !== 'en'))(
    '%s has every text, translated, with the same placeholders',
    (language) => {
      expect(englishKeys.length).toBeGreaterThan(120);
      const english = consoleTranslator('en');
      const translated = consoleTranslator(language);
      const same = englishKeys.filter((key) => translated(key) === english(key));
      expect(same.length).toBeLessThanOrEqual(3);
      for (const key of englishKeys)
        expect({ key, names: placeholders(translated(key)) }).toEqual({ key, names: placeholders(english(key)) });
    },
  );

  it('has an English text for every key the page and its scripts name', () => {
    const html = source('index.html');
    const scripts = readdirSync(new URL('assets/', CONSOLE))
      .filter((name) => name.endsWith('.js'))
      .map((name) => source(`assets/${name}`))
      .join('\n');
    const named = new Set([
      ...[...html.matchAll(/data-i18n(?:-label)?="(\w+)"/g)].map((match) => match[1] as string),
      ...[...scripts.matchAll(/\bt\('(\w+)'/g)].map((match) => match[1] as string),
    ]);
    expect(named.size).toBeGreaterThan(60);
    expect([...named].filter((key) => !englishKeys.includes(key))).toEqual([]);
    // Keys built from a status: each value the API can answer has its text.
    for (const key of [
      'st_active',
      'st_completed',
      'st_expired',
      'st_canceled',
      'tx_pending',
      'tx_succeeded',
      'tx_failed',
      'tx_dead_lettered',
      'round_open',
      'round_settled',
      'round_canceled',
      'kind_paid',
      'kind_free',
      'campaign_running',
      'campaign_completed',
      'redrive_applied',
      'redrive_already_applied',
      'redrive_failed',
      'hook_redriven',
      'hook_already_redriven',
    ])
      expect({ key, known: englishKeys.includes(key) }).toEqual({ key, known: true });
  });
});
