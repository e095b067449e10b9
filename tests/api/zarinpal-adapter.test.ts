/**
 * The ZarinPal adapter against a local HTTP server that answers as ZarinPal's REST API v4 documents
 * (https://www.zarinpal.com/docs/paymentGateway/connectToGateway): the bodies the adapter sends, the codes it
 * understands (100, 101, -50, -51, …), and what counts as the gateway being unavailable. Also the payment
 * settings of the configuration and the factory that picks the gateway.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { GatewayUnavailableError } from '../../src/server/modules/payments/payment-gateway';
import { createPaymentGateway, SANDBOX_MERCHANT_ID } from '../../src/server/modules/payments/choose-gateway';
import { GatewayRefusedError, ZarinpalGateway } from '../../src/server/modules/payments/zarinpal';
import { startServer } from '../support/server';

const MERCHANT = '1344b5d4-0048-11e8-94db-005056a205be';
const AUTHORITY = 'A0000000000000000000000000000wwOGYpd';

interface Seen {
  method: string;
  path: string;
  contentType: string | undefined;
  body: unknown;
}

type Answer = (req: Seen, res: ServerResponse) => void;

let server: Server;
let base: string;
const seen: Seen[] = [];
let answer: Answer;

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** ZarinPal's success envelope for a payment request. */
const requested = (res: ServerResponse) =>
  json(res, 200, {
    data: { code: 100, message: 'Success', authority: AUTHORITY, fee_type: 'Merchant', fee: 100 },
    errors: [],
  });

/** ZarinPal's success envelope for a verification (code 100 or 101). */
const verified =
  (code: 100 | 101, extra: Record<string, unknown> = {}) =>
  (_req: Seen, res: ServerResponse) =>
    json(res, 200, {
      data: {
        code,
        message: code === 100 ? 'Paid' : 'Verified',
        card_hash: '1EBE3EBEC17B1E3F1A4C2EB8F5E4D2A0B6F7C8D9E0F1A2B3C4D5E6F708192A3B',
        card_pan: '502229******5995',
        ref_id: 201,
        fee_type: 'Merchant',
        fee: 0,
        ...extra,
      },
      errors: [],
    });

/** ZarinPal's refusal envelope: empty data, an error code, a 4xx status. */
const refused =
  (code: number, message: string, status = 400) =>
  (_req: Seen, res: ServerResponse) =>
    json(res, status, { data: [], errors: { code, message, validations: [] } });

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const entry = { method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], body };
      seen.push(entry);
      answer(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  answer = (_req, res) => json(res, 404, { message: 'unexpected' });
});

const gateway = (extra: Partial<ConstructorParameters<typeof ZarinpalGateway>[0]> = {}) =>
  new ZarinpalGateway({
    name: 'zarinpal',
    title: 'زرین‌پال',
    baseUrl: base,
    merchantId: MERCHANT,
    requiresNamedCard: true,
    ...extra,
  });

const payment = {
  amount: 1_250_000,
  callbackUrl: 'https://arzpay.example/api/public/payments/callback/tok123',
  description: 'پرداخت درخواست شماره ۱۲ در ارزپی',
  payer: { mobileNo: '09121234567', nationalCode: '0012345679' },
};

describe('ZarinPal adapter: payment request', () => {
  it('POSTs the documented JSON to request.json and sends the browser to StartPay/{authority}', async () => {
    answer = (_req, res) => requested(res);
    const created = await gateway().createPayment(payment);
    expect(created).toEqual({ authority: AUTHORITY, redirectUrl: `${base}/pg/StartPay/${AUTHORITY}` });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.path).toBe('/pg/v4/payment/request.json');
    expect(seen[0]!.contentType).toBe('application/json');
    expect(seen[0]!.body).toEqual({
      merchant_id: MERCHANT,
      amount: 1_250_000,
      currency: 'IRR',
      callback_url: payment.callbackUrl,
      description: payment.description,
      metadata: { mobile: '09121234567' },
    });
  });

  it('sends the national code only to a gateway that takes it, and the browser to startPayBaseUrl when set', async () => {
    answer = (_req, res) => requested(res);
    const created = await gateway({
      baseUrl: () => `${base}/bank`,
      startPayBaseUrl: 'https://pay.example/bank/',
      sendNationalCode: true,
    }).createPayment({ ...payment, payer: { mobileNo: null, nationalCode: '0012345679' } });
    expect(created.redirectUrl).toBe(`https://pay.example/bank/pg/StartPay/${AUTHORITY}`);
    expect(seen[0]!.path).toBe('/bank/pg/v4/payment/request.json');
    expect((seen[0]!.body as { metadata: unknown }).metadata).toEqual({ national_code: '0012345679' });
  });

  it('names the card in metadata.card_pan (payment with a specified card) when the payment names one', async () => {
    answer = (_req, res) => requested(res);
    await gateway().createPayment({ ...payment, cardPan: '6037991234567893' });
    expect((seen[0]!.body as { metadata: unknown }).metadata).toEqual({
      mobile: '09121234567',
      card_pan: '6037991234567893',
    });
  });

  it('a refusal (-9 validation, -10 merchant) is a GatewayRefusedError with the code, a kind of unavailable', async () => {
    answer = (_req, res) =>
      json(res, 422, {
        data: [],
        errors: {
          code: -9,
          message: 'The input params invalid, validation error.',
          validations: [{ amount: 'The amount must be at least 1000.' }],
        },
      });
    const error = await gateway()
      .createPayment(payment)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayRefusedError);
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect((error as GatewayRefusedError).code).toBe('-9');

    answer = refused(-10, 'Terminal is not valid, please check merchant_id or ip address.');
    await expect(gateway().createPayment(payment)).rejects.toMatchObject({ code: '-10' });
  });

  it('an answer without an authority is refused, not trusted', async () => {
    answer = (_req, res) => json(res, 200, { data: { code: 100, message: 'Success' }, errors: [] });
    await expect(gateway().createPayment(payment)).rejects.toBeInstanceOf(GatewayRefusedError);
  });
});

describe('ZarinPal adapter: verification', () => {
  const input = { authority: AUTHORITY, amount: 1_250_000 };

  it('POSTs merchant_id, amount and authority to verify.json; 100 is paid', async () => {
    answer = verified(100);
    const result = await gateway().verify(input);
    expect(seen[0]!.path).toBe('/pg/v4/payment/verify.json');
    expect(seen[0]!.body).toEqual({ merchant_id: MERCHANT, amount: 1_250_000, authority: AUTHORITY });
    expect(result).toEqual({
      paid: true,
      amount: 1_250_000,
      referenceId: '201',
      cardNo: '502229******5995',
      cardHash: '1EBE3EBEC17B1E3F1A4C2EB8F5E4D2A0B6F7C8D9E0F1A2B3C4D5E6F708192A3B',
      holderNationalCode: null,
      alreadyVerified: false,
    });
  });

  it('101 is paid and already verified; a holder_national_code (the sandbox bank) is reported', async () => {
    answer = verified(101, { holder_national_code: '0012345679' });
    expect(await gateway().verify(input)).toMatchObject({
      paid: true,
      referenceId: '201',
      holderNationalCode: '0012345679',
      alreadyVerified: true,
    });
  });

  it('-51 (not paid) and -50 (another amount) are unpaid with their codes', async () => {
    answer = refused(-51, 'Session is not valid, session is not active paid try.');
    expect(await gateway().verify(input)).toEqual({ paid: false, code: '-51' });
    answer = refused(-50, 'Session is not valid, amounts values is not the same.');
    expect(await gateway().verify(input)).toEqual({ paid: false, code: '-50' });
    answer = refused(-54, 'Invalid authority.', 404);
    expect(await gateway().verify(input)).toEqual({ paid: false, code: '-54' });
  });

  it('any code other than 100 or 101 in data is unpaid', async () => {
    answer = (_req, res) => json(res, 200, { data: { code: -22, message: 'Transaction failed' }, errors: [] });
    expect(await gateway().verify(input)).toEqual({ paid: false, code: '-22' });
  });

  it('a paid answer without ref_id is not trusted', async () => {
    answer = verified(100, { ref_id: null });
    await expect(gateway().verify(input)).rejects.toBeInstanceOf(GatewayUnavailableError);
  });
});

describe('ZarinPal adapter: the gateway unavailable', () => {
  const input = { authority: AUTHORITY, amount: 1000 };

  it('5xx, a 4xx without ZarinPal’s envelope and a non-JSON answer throw GatewayUnavailableError', async () => {
    answer = (_req, res) => json(res, 500, { message: 'Internal Server Error' });
    await expect(gateway().verify(input)).rejects.toBeInstanceOf(GatewayUnavailableError);
    await expect(gateway().createPayment(payment)).rejects.toBeInstanceOf(GatewayUnavailableError);
    answer = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
    };
    await expect(gateway().verify(input)).rejects.toBeInstanceOf(GatewayUnavailableError);
    answer = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>Not Found</html>');
    };
    await expect(gateway().verify(input)).rejects.toBeInstanceOf(GatewayUnavailableError);
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":');
    };
    await expect(gateway().verify(input)).rejects.toBeInstanceOf(GatewayUnavailableError);
  });

  it('a redirect is not followed', async () => {
    answer = (_req, res) => {
      res.writeHead(302, { location: `${base}/elsewhere` });
      res.end();
    };
    await expect(gateway().verify(input)).rejects.toBeInstanceOf(GatewayUnavailableError);
    expect(seen.map((s) => s.path)).toEqual(['/pg/v4/payment/verify.json']);
  });

  it('an answer that does not come in time throws GatewayUnavailableError', async () => {
    answer = () => {
      // never answers
    };
    const error = await gateway({ timeoutMs: 200 })
      .verify(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    server.closeAllConnections();
  });

  it('a refused connection throws GatewayUnavailableError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await gateway({ baseUrl: `http://127.0.0.1:${port}` })
      .createPayment(payment)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayUnavailableError);
  });
});

describe('payment settings and the gateway factory', () => {
  it('defaults to the sandbox with nothing configured', () => {
    expect(loadConfig({}).payments).toEqual({
      gateway: 'sandbox',
      zarinpal: null,
      publicUrl: undefined,
      sandboxBankUrl: undefined,
      sandboxBankMode: 'holder',
    });
  });

  it('reads ZarinPal, PUBLIC_URL and SANDBOX_BANK_URL (without a trailing slash)', () => {
    expect(
      loadConfig({
        PAYMENT_GATEWAY: 'zarinpal',
        ZARINPAL_MERCHANT_ID: MERCHANT,
        PUBLIC_URL: 'https://arzpay.example/',
        SANDBOX_BANK_URL: 'http://bank.internal:3000',
      }).payments,
    ).toEqual({
      gateway: 'zarinpal',
      zarinpal: { merchantId: MERCHANT, baseUrl: 'https://payment.zarinpal.com' },
      publicUrl: 'https://arzpay.example',
      sandboxBankUrl: 'http://bank.internal:3000',
      sandboxBankMode: 'holder',
    });
    expect(
      loadConfig({
        PAYMENT_GATEWAY: 'zarinpal',
        ZARINPAL_MERCHANT_ID: MERCHANT,
        ZARINPAL_BASE_URL: 'https://sandbox.zarinpal.com',
      }).payments.zarinpal,
    ).toEqual({ merchantId: MERCHANT, baseUrl: 'https://sandbox.zarinpal.com' });
  });

  it('refuses bad values with one line naming the variable', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PAYMENT_GATEWAY: 'paypal' }, /^PAYMENT_GATEWAY must be "sandbox" or "zarinpal", got "paypal"$/],
      [{ PAYMENT_GATEWAY: 'zarinpal' }, /^PAYMENT_GATEWAY=zarinpal needs ZARINPAL_MERCHANT_ID$/],
      [{ PAYMENT_GATEWAY: 'zarinpal', ZARINPAL_MERCHANT_ID: 'abc' }, /^ZARINPAL_MERCHANT_ID must be the 36-character/],
      [
        { PAYMENT_GATEWAY: 'zarinpal', ZARINPAL_MERCHANT_ID: MERCHANT, ZARINPAL_BASE_URL: 'ftp://x' },
        /^ZARINPAL_BASE_URL must be an http/,
      ],
      [{ PUBLIC_URL: 'arzpay.example' }, /^PUBLIC_URL must be an http:\/\/ or https:\/\/ address/],
      [{ SANDBOX_BANK_URL: 'http://bank/?x=1' }, /^SANDBOX_BANK_URL must be an http/],
    ];
    for (const [env, message] of cases) {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('the sandbox gateway is the adapter pointed at /sandbox-bank of this server, asked at each call', async () => {
    let own = 'http://127.0.0.1:1';
    const sandbox = createPaymentGateway(loadConfig({}), () => own);
    expect([sandbox.name, sandbox.title, sandbox.requiresNamedCard]).toEqual(['sandbox', 'درگاه آزمایشی', false]);
    own = base;
    answer = (_req, res) => requested(res);
    const created = await sandbox.createPayment(payment);
    expect(seen[0]!.path).toBe('/sandbox-bank/pg/v4/payment/request.json');
    expect(seen[0]!.body).toMatchObject({
      merchant_id: SANDBOX_MERCHANT_ID,
      metadata: { mobile: '09121234567', national_code: '0012345679' },
    });
    // The browser is sent by path: it stays on the address it reached the site at.
    expect(created.redirectUrl).toBe(`/sandbox-bank/pg/StartPay/${AUTHORITY}`);

    // With PUBLIC_URL the browser goes to the public address; the server still calls itself.
    const behindProxy = createPaymentGateway(loadConfig({ PUBLIC_URL: 'https://arzpay.example' }), () => base);
    expect((await behindProxy.createPayment(payment)).redirectUrl).toBe(
      `https://arzpay.example/sandbox-bank/pg/StartPay/${AUTHORITY}`,
    );
    expect(seen[1]!.path).toBe('/sandbox-bank/pg/v4/payment/request.json');

    // SANDBOX_BANK_URL: another server's sandbox bank, for the calls and the browser alike.
    const elsewhere = createPaymentGateway(loadConfig({ SANDBOX_BANK_URL: `${base}/other` }), () => 'http://x');
    expect((await elsewhere.createPayment(payment)).redirectUrl).toBe(
      `${base}/other/sandbox-bank/pg/StartPay/${AUTHORITY}`,
    );
    expect(seen[2]!.path).toBe('/other/sandbox-bank/pg/v4/payment/request.json');
  });

  it('PAYMENT_GATEWAY=zarinpal gives the adapter with the merchant code and ZarinPal’s address', async () => {
    const zarinpal = createPaymentGateway(
      loadConfig({ PAYMENT_GATEWAY: 'zarinpal', ZARINPAL_MERCHANT_ID: MERCHANT, ZARINPAL_BASE_URL: base }),
      () => 'http://unused',
    );
    expect([zarinpal.name, zarinpal.title, zarinpal.requiresNamedCard]).toEqual(['zarinpal', 'زرین‌پال', true]);
    answer = (_req, res) => requested(res);
    expect((await zarinpal.createPayment(payment)).redirectUrl).toBe(`${base}/pg/StartPay/${AUTHORITY}`);
    expect(seen[0]!.body).toMatchObject({ merchant_id: MERCHANT, metadata: { mobile: '09121234567' } });
    expect((seen[0]!.body as { metadata: Record<string, unknown> }).metadata.national_code).toBeUndefined();
  });

  it('a server with PAYMENT_GATEWAY=zarinpal does not serve the sandbox bank', async () => {
    const running = await startServer({
      web: false,
      env: { PAYMENT_GATEWAY: 'zarinpal', ZARINPAL_MERCHANT_ID: MERCHANT, ZARINPAL_BASE_URL: base },
    });
    try {
      const res = await fetch(`${running.url}/sandbox-bank/pg/v4/payment/request.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(404);
    } finally {
      await running.stop();
    }
  });
});
