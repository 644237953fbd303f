/**
 * The game page speaks every language the shipped catalog lists for its games: a language the
 * catalog names and the page lacks fails here, instead of the page silently showing English. Each
 * language has every text of the page, translated (no English copies), with the same placeholders.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
// The page's own module, as the browser loads it.
// @ts-expect-error: a plain JavaScript module of the page, without type declarations
import { languageOf, SUPPORTED_LANGUAGES, translator } from '../public/i18n.js';
import { launchErrorPage } from '../src/http/launch-error-page.js';

type Translate = (key: string, values?: Record<string, unknown>) => string;
const pageLanguageOf = languageOf as (tag: string) => string;
const pageTranslator = translator as (tag: string) => Translate;
const supported = SUPPORTED_LANGUAGES as string[];

const catalog = JSON.parse(readFileSync(new URL('../../../../config/catalog.json', import.meta.url), 'utf8')) as {
  games: { gameId: number; languages: string[] }[];
};
/** Every language a game of the catalog lists, by its ISO 639-1 base (zh-TW → zh). */
const catalogLanguages = [
  ...new Set(catalog.games.flatMap((game) => game.languages.map((tag) => tag.split('-')[0] ?? tag))),
];

/** The English texts, read through the translator key by key from the page's own English table. */
const englishKeys = (() => {
  const source = readFileSync(new URL('../public/i18n.js', import.meta.url), 'utf8');
  const english = /\n {2}en: \{\n([\s\S]*?)\n {2}\},/.exec(source)?.[1] ?? '';
  return [...english.matchAll(/^ {4}(\w+):/gm)].map((match) => match[1] as string);
})();
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the game page’s languages', () => {
  it('include every language the catalog lists (th, vi, de, es and pt among them)', () => {
    expect(catalogLanguages).toEqual(expect.arrayContaining(['en', 'ko', 'ja', 'zh', 'th', 'vi', 'de', 'es', 'pt']));
    expect(catalogLanguages.filter((language) => !supported.includes(language))).toEqual([]);
    for (const language of catalogLanguages) expect(pageLanguageOf(language)).toBe(language);
  });

  it.each(catalogLanguages.filter((language) => language !== 'en'))(
    '%s has every text of the page, translated, with the same placeholders',
    (language) => {
      expect(englishKeys.length).toBeGreaterThan(40);
      const english = pageTranslator('en');
      const translated = pageTranslator(language);
      const untranslated = englishKeys.filter((key) => translated(key) === english(key));
      expect(untranslated).toEqual([]);
      for (const key of englishKeys)
        expect({ key, names: placeholders(translated(key)) }).toEqual({ key, names: placeholders(english(key)) });
    },
  );

  it('a region of a listed language speaks it too (pt-BR is pt, es-MX is es)', () => {
    expect(pageTranslator('pt-BR')('balance')).toBe(pageTranslator('pt')('balance'));
    expect(pageTranslator('es-MX')('spin')).toBe(pageTranslator('es')('spin'));
    expect(pageTranslator('de')('bonusStarts', { total: 10, bet: '€0.20' })).toBe(
      'Sie haben 10 Freispiele zu je €0.20. Viel Glück!',
    );
  });

  it.each(catalogLanguages.filter((language) => language !== 'en'))(
    'the launch error page of a %s session is in that language',
    (language) => {
      const session = { language, returnUrl: 'https://casino.example/lobby' };
      for (const problem of ['not_found', 'expired'] as const) {
        const page = launchErrorPage(problem, session);
        expect(page).not.toContain(launchErrorPage(problem, { ...session, language: 'en' }).match(/<p>(.*)<\/p>/)?.[1]);
        expect(page).toContain(`lang="${language}"`);
      }
    },
  );
});
