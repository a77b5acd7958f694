import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src-shared/schemas/settings.ts';
import { PricingDocument } from '../../../src-shared/schemas/pricing.ts';
import { ModelCard } from '../../../src-shared/schemas/openai.ts';
import { findModelCard, modelCards, perMillionToPerToken, pricingDocument } from './catalog.ts';

describe('perMillionToPerToken', () => {
  it.each([
    [0.5, '0.0000005'],
    [2, '0.000002'],
    [1, '0.000001'],
    [4, '0.000004'],
    [12.345, '0.000012345'],
    [1500, '0.0015'],
    [0, '0'],
  ])('%s USD per million is %s per token', (rate, expected) => {
    expect(perMillionToPerToken(rate)).toBe(expected);
  });
});

describe('catalog', () => {
  it('lists the three versioned chat models with pricing and context length', () => {
    const cards = modelCards(DEFAULT_SETTINGS);
    expect(cards.map((c) => c.id)).toEqual(['svc/audit-1', 'svc/fix-1', 'svc/refine-1']);
    for (const card of cards) expect(ModelCard.parse(card)).toEqual(card);
    expect(cards[0]?.pricing).toEqual({ prompt: '0.0000005', completion: '0.000002' });
  });
  it('answers an unversioned alias with the versioned card', () => {
    expect(findModelCard('svc/fix', DEFAULT_SETTINGS)?.id).toBe('svc/fix-1');
    expect(findModelCard('svc/fix-2', DEFAULT_SETTINGS)).toBeUndefined();
  });
  it('publishes the pricing document the schema describes, with the settings in force', () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      rates: { ...DEFAULT_SETTINGS.rates, 'svc-audit-1': { input: 0.25, output: 1 } },
    };
    const doc = pricingDocument(settings);
    expect(PricingDocument.parse(doc)).toEqual(doc);
    expect(doc.models['svc-audit-1']).toEqual({ input: 0.25, output: 1 });
    expect(doc.minimum_charge_usd).toBe(0.01);
  });
});
