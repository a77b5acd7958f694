import { useState } from 'react';
import type { z } from 'zod';
import type { Credits, SpendDay } from '../../../src-shared/owner/account.ts';
import { api } from '../../api/client.ts';
import { NumberField } from '../../components/NumberField.tsx';
import { SpendChart } from '../../components/SpendChart.tsx';

/** Balance, held and available credit; adding local credit; spend per day. */
export function CreditCard({
  credits,
  spend,
  run,
}: {
  credits: z.infer<typeof Credits> | null;
  spend: z.infer<typeof SpendDay>[];
  run: (work: () => Promise<void>) => void;
}) {
  const [amount, setAmount] = useState<number | null>(10);
  return (
    <div className="card">
      <h2>Credit</h2>
      {credits && (
        <dl className="facts" data-testid="credits">
          <dt>Balance</dt>
          <dd>${credits.balance_usd.toFixed(2)}</dd>
          <dt>Held by requests in flight</dt>
          <dd>${credits.held_usd.toFixed(2)}</dd>
          <dt>Available</dt>
          <dd>${credits.available_usd.toFixed(2)}</dd>
        </dl>
      )}
      <form
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (amount !== null) run(() => api.addCredits({ usd: amount }).then(() => undefined));
        }}
      >
        <NumberField
          label="Amount in USD"
          min={0.01}
          max={1_000_000}
          step={0.01}
          value={10}
          onChange={setAmount}
        />
        <button type="submit" className="button" disabled={amount === null}>
          Add credit
        </button>
      </form>
      <h3>Spend of API keys per day (30 days)</h3>
      <SpendChart days={spend} />
      <h3>Usage of your own runs per day (not charged)</h3>
      <SpendChart
        days={spend.map((d) => ({ day: d.day, charged_usd: d.usage_usd }))}
        label="Usage of your own runs per day"
      />
      <p className="muted" data-testid="owner-usage">
        App and command-line runs spend no credit: they record their tokens and what those would
        cost at the rates ({spend.reduce((n, d) => n + d.usage_tokens, 0).toLocaleString('en-US')}{' '}
        tokens, ${spend.reduce((n, d) => n + d.usage_usd, 0).toFixed(2)} in 30 days).
      </p>
    </div>
  );
}
