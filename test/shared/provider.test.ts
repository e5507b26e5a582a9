import { describe, expect, it } from 'vitest';
import {
  hasLegalForm,
  matchProvider,
  normalizeCompanyName,
  type Provider,
  ProvidersFileSchema,
  providerLookupFrom,
} from '../../lambdas/shared/documents/index.js';

const providers: Provider[] = [
  { id: 'p1', name: 'Acme Logistics Inc', aliases: ['Acme Freight'], taxId: '94-3187220' },
  { id: 'p2', name: 'Sakura Precision KK' },
  { id: 'p3', name: 'Blackwater Print & Media Ltd' },
];

describe('providers', () => {
  it.each([
    ['Acme Logistics, Inc.', 'acme logistics'],
    ['ACME LOGISTICS INCORPORATED', 'acme logistics'],
    ['Sakura Precision K.K.', 'sakura precision'],
    ['The Blackwater Print and Media Limited', 'blackwater print and media'],
    ['Greenfield Energy Partners, L.P.', 'greenfield energy partners'],
    ['Café Bohne UG (haftungsbeschränkt)', 'cafe bohne'],
    ['Lakeside Physical Therapy, P.C.', 'lakeside physical therapy'],
    ['Tallinna Puidutööd OÜ', 'tallinna puidutood'],
    ['Pest Pékség Zrt.', 'pest pekseg'],
    ['Jadran Marine d.o.o.', 'jadran marine'],
    ['Nautika Zadar j.d.o.o.', 'nautika zadar'],
    ['UAB Baltijos Tiekimas', 'baltijos tiekimas'],
    ['Baltijos Tiekimas UAB', 'baltijos tiekimas'],
    ['SIA Rīgas Koks', 'rigas koks'],
    ['ΑΛΦΑ Trading Α.Ε.', 'αλφα trading'],
    ['Παπαδόπουλος Ι.Κ.Ε.', 'παπαδοπουλος'],
    ['Ромашка Сервис', 'ромашка сервис'],
    // A Russian or Ukrainian legal form before the name goes, as a Bulgarian one after it does.
    ['ООО Ромашка', 'ромашка'],
    ['ТОВ «Світанок»', 'світанок'],
    ['Техносервиз ЕООД', 'техносервиз'],
    ['Логистика Пловдив АД', 'логистика пловдив'],
    ['ЕТ „Иван Петров“', 'иван петров'],
    ['Графика Нова д.о.о.', 'графика нова'],
    ['Браћа Јовић о.д.', 'браћа јовић'],
    ['Anadolu Yazılım Ltd. Şti.', 'anadolu yazilim'],
    ['ANADOLU YAZILIM LTD. ŞTİ.', 'anadolu yazilim'],
    ['Großhandel Weiß GmbH', 'grosshandel weiss'],
    ['GROSSHANDEL WEISS GMBH', 'grosshandel weiss'],
    // Latin letters without a plain form go, as they always did: stored comparison keys stay.
    ['Møller A/S', 'm ller a s'],
  ])('normalise %s to %s', (name, expected) => {
    expect(normalizeCompanyName(name)).toBe(expected);
  });

  it('keep a capitalised word that only looks like a Baltic legal form when nothing follows it, or it is not written in capitals', () => {
    // Act
    const names = ['AS', 'As Good As New', 'Ab Fab Cleaning'].map(normalizeCompanyName);

    // Assess
    expect(names).toEqual(['as', 'as good as new', 'ab fab cleaning']);
  });

  it('tell two names apart by their letters in another script, not by the Latin words they share', () => {
    // Act
    const match = matchProvider([{ id: 'p9', name: 'ΑΛΦΑ Trading Α.Ε.' }], { name: 'ΒΗΤΑ Trading Ε.Π.Ε.' });

    // Assess
    expect(match).toBeUndefined();
  });

  it('match by name, alias or tax id, and never by a near miss', () => {
    // Act
    const byName = matchProvider(providers, { name: 'Sakura Precision K.K.' });
    const byAlias = matchProvider(providers, { name: 'Acme Freight LLC' });
    const byTaxId = matchProvider(providers, { name: 'Something Else', taxId: '943187220' });
    const nearMiss = matchProvider(providers, { name: 'Acme Logistic Inc' });

    // Assess
    expect(byName?.id).toBe('p2');
    expect(byAlias?.id).toBe('p1');
    expect(byTaxId?.id).toBe('p1');
    expect(nearMiss).toBeUndefined();
  });

  it('look up through the async lookup an in-memory list provides', async () => {
    // Prepare
    const lookup = providerLookupFrom(providers);

    // Act
    const found = await lookup({ name: 'Blackwater Print & Media Ltd.' });

    // Assess
    expect(found?.id).toBe('p3');
  });

  it('refuse an import file with duplicate ids or unknown keys', () => {
    // Act
    const duplicate = ProvidersFileSchema.safeParse([providers[0], providers[0]]);
    const extraKey = ProvidersFileSchema.safeParse([{ id: 'x', name: 'Xy Corp', colour: 'red' }]);
    const good = ProvidersFileSchema.safeParse(providers);

    // Assess
    expect(duplicate.success).toBe(false);
    expect(extraKey.success).toBe(false);
    expect(good.success).toBe(true);
  });
});

describe('a legal form at the end of a name', () => {
  it.each([
    ['Nordlys Rørlegger AS', true],
    ['Eko Beverages plc', true],
    ['acme gmbh', true],
    ['The Supplier appoints the Reseller as', false],
    ['Marsh & Penrose Audio Ltd incorporated', false],
    ['registered in England and Wales with company', false],
  ])(
    '"%s": %s (a form that is also a word, in lower case after capitals, is the clause\'s word)',
    (name, form) => {
      // Act
      const found = hasLegalForm(name);

      // Assess
      expect(found).toBe(form);
    },
  );
});
