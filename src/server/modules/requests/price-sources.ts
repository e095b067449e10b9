/**
 * What a price depends on besides the customer's input, kept in memory (decision 016): the currencies with their
 * rates, the payment method groups and the system parameters. Each is read once, on first use, and read again
 * after the change that announces itself (`currency.updated`, `systemParameters.updated`; other processes hear it
 * through Redis, see realtime/server.ts) or, as a safety net for hand edits of the database, after `maxAgeMs`.
 */
import type { DB } from '../../db/database';
import { readSettings, type Settings } from '../settings';

export interface PricedCurrency {
  id: number;
  code: string;
  title: string;
  rate: number;
  useForUafCpr: boolean;
  useForGoogleAdsAccountCr: boolean;
}

export interface PricedGroup {
  id: number;
  isCash: boolean;
}

/** What a cache holds: a named kind of reference data. */
export type PriceSourceKind = 'currencies' | 'parameters';

interface Loaded<T> {
  value: Promise<T>;
  at: number;
}

export class PriceSources {
  private currencies: Loaded<{ currencies: Map<number, PricedCurrency>; groups: Map<number, PricedGroup> }> | null =
    null;
  private settings: Loaded<Settings> | null = null;

  constructor(
    private readonly db: DB,
    private readonly maxAgeMs = 60_000,
  ) {}

  private fresh<T>(loaded: Loaded<T> | null): loaded is Loaded<T> {
    return loaded !== null && performance.now() - loaded.at < this.maxAgeMs;
  }

  private reference() {
    if (!this.fresh(this.currencies)) {
      const value = (async () => {
        const [currencies, groups] = await Promise.all([
          this.db
            .selectFrom('currencies')
            .select(['id', 'code', 'title', 'rate', 'useForUafCpr', 'useForGoogleAdsAccountCr'])
            .execute(),
          this.db.selectFrom('paymentMethodGroups').select(['id', 'isCash']).execute(),
        ]);
        return {
          currencies: new Map(currencies.map((c) => [c.id, { ...c, code: c.code.trim() }])),
          groups: new Map(groups.map((g) => [g.id, g])),
        };
      })();
      const loaded = { value, at: performance.now() };
      this.currencies = loaded;
      // A failed read is not kept: the next inquiry tries again.
      value.catch(() => {
        if (this.currencies === loaded) this.currencies = null;
      });
    }
    return this.currencies.value;
  }

  async currency(id: number): Promise<PricedCurrency | undefined> {
    return (await this.reference()).currencies.get(id);
  }

  /** The currency with this ISO code (USD), as a plan's fee names it. */
  async currencyByCode(code: string): Promise<PricedCurrency | undefined> {
    for (const currency of (await this.reference()).currencies.values()) if (currency.code === code) return currency;
    return undefined;
  }

  async group(id: number): Promise<PricedGroup | undefined> {
    return (await this.reference()).groups.get(id);
  }

  parameters(): Promise<Settings> {
    if (!this.fresh(this.settings)) {
      const loaded = { value: readSettings(this.db), at: performance.now() };
      this.settings = loaded;
      loaded.value.catch(() => {
        if (this.settings === loaded) this.settings = null;
      });
    }
    return this.settings.value;
  }

  /** Forgets `kind`, so the next price reads it again from the database. */
  invalidate(kind: PriceSourceKind): void {
    if (kind === 'currencies') this.currencies = null;
    else this.settings = null;
  }
}
