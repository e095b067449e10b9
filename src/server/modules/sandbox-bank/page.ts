/**
 * The sandbox bank's pages: the payment page (amount, merchant, countdown, card form) and short notices (expired,
 * already answered, not found). Plain HTML that works without script; the one inline script (the countdown) and
 * the style carry the response's CSP nonce. Every value printed is escaped.
 */
import { toPersianDigits } from '../../../shared/digits';
import { escapeHtml } from '../../../shared/escape-html';
import { formatRial } from '../../../shared/format';
import { rialInWords } from '../../../shared/format/persian-words';

/** Where the bank's own files (fonts) are served. */
export const ASSET_PATH = '/sandbox-bank/assets';

/** A Luhn-valid card number the page offers for trying the gateway (Bank Melli's prefix). */
export const SAMPLE_CARD = '6037991234567893';

const groupCard = (card: string) => card.replace(/([\d*]{4})(?=[\d*])/g, '$1 ');

const STYLE = `
@font-face{font-family:Vazirmatn;font-weight:400;font-display:swap;src:url(${ASSET_PATH}/vazirmatn-arabic-400.woff2) format('woff2');unicode-range:U+0600-06FF,U+200C-200E,U+FB50-FDFF,U+FE70-FEFC}
@font-face{font-family:Vazirmatn;font-weight:700;font-display:swap;src:url(${ASSET_PATH}/vazirmatn-arabic-700.woff2) format('woff2');unicode-range:U+0600-06FF,U+200C-200E,U+FB50-FDFF,U+FE70-FEFC}
@font-face{font-family:Vazirmatn;font-weight:400;font-display:swap;src:url(${ASSET_PATH}/vazirmatn-latin-400.woff2) format('woff2');unicode-range:U+0000-00FF,U+2000-206F}
@font-face{font-family:Vazirmatn;font-weight:700;font-display:swap;src:url(${ASSET_PATH}/vazirmatn-latin-700.woff2) format('woff2');unicode-range:U+0000-00FF,U+2000-206F}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#eef2f7;color:#1c2733;font:15px/1.7 Vazirmatn,Tahoma,'Segoe UI',system-ui,sans-serif}
.bar{background:linear-gradient(135deg,#0b3d91,#1565c0);color:#fff;padding:14px 16px 44px}
.bar-in{max-width:480px;margin:0 auto;display:flex;align-items:center;gap:10px}
.bar h1{font-size:16px;margin:0;font-weight:700;flex:1}
.bar svg{flex:none}
.badge{background:#ffc107;color:#3d2c00;border-radius:999px;padding:1px 10px;font-size:12px;font-weight:700}
main{max-width:480px;margin:-30px auto 0;padding:0 12px 24px}
.card{background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(16,38,74,.12),0 6px 18px rgba(16,38,74,.06);padding:16px;margin-bottom:12px}
.test{background:#fff8e1;border:1px solid #ffe08a;color:#6b4e00;border-radius:12px;padding:10px 12px;font-size:13px;margin-bottom:12px;display:flex;gap:8px;align-items:flex-start}
.test strong{display:block}
dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:6px 12px}
dt{color:#5b6b7c;font-size:13px}
dd{margin:0;text-align:left;font-weight:700;overflow-wrap:anywhere}
dd.desc{text-align:right;font-weight:400}
.amount{border-top:1px dashed #d5dde6;margin-top:12px;padding-top:12px;text-align:center}
.amount .label{color:#5b6b7c;font-size:13px}
.amount .value{font-size:26px;font-weight:700;color:#0b3d91;line-height:1.5}
.amount .words{font-size:12px;color:#5b6b7c}
.timer{display:flex;justify-content:space-between;align-items:center;font-size:13px;color:#5b6b7c}
.timer b{font-size:18px;color:#c62828;font-variant-numeric:tabular-nums}
label{display:block;font-weight:700;font-size:14px;margin:12px 0 4px}
label:first-child{margin-top:0}
input[type=text]{width:100%;font:inherit;font-size:18px;padding:10px 12px;border:1px solid #c3ccd7;border-radius:10px;background:#fbfcfe;color:#1c2733;direction:ltr;text-align:center;letter-spacing:.06em}
input[type=text]:focus{outline:3px solid rgba(21,101,192,.25);border-color:#1565c0}
input[aria-invalid=true]{border-color:#c62828;background:#fff6f6}
.hint{font-size:12px;color:#5b6b7c;margin:4px 0 0}
.field-error{font-size:13px;color:#c62828;margin:4px 0 0;font-weight:700}
.alert{background:#fdecea;border:1px solid #f5c2bd;color:#8e1c15;border-radius:10px;padding:10px 12px;margin-bottom:12px;font-size:14px}
.actions{display:flex;gap:10px;margin-top:16px}
button,.button{font:inherit;font-weight:700;font-size:16px;border-radius:10px;padding:11px 12px;cursor:pointer;border:1px solid transparent;text-align:center;text-decoration:none}
.pay{flex:2;background:#1b873f;color:#fff}
.pay:hover{background:#146c32}
.pay:disabled{background:#9fb7a7;cursor:not-allowed}
.cancel{flex:1;background:#fff;color:#8e1c15;border-color:#e3b3ae}
.cancel:hover{background:#fdecea}
.button{display:block;background:#1565c0;color:#fff;margin-top:16px}
.notice{text-align:center;padding:24px 16px}
.notice h2{font-size:18px;margin:8px 0}
.notice p{margin:0;color:#44525f}
.expired{display:block;color:#c62828;font-weight:700;font-size:13px;margin-top:6px}
.expired[hidden]{display:none}
footer{text-align:center;font-size:12px;color:#7a8896;margin-top:8px}
.leaving{display:flex;gap:8px;align-items:center;justify-content:center;margin:12px 0 0;font-size:14px;font-weight:700;color:#0b3d91}
.leaving[hidden]{display:none}
.leaving::before{content:'';flex:none;width:16px;height:16px;border:2px solid #c3ccd7;border-top-color:#1565c0;border-radius:50%;animation:spin .8s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.leaving::before{animation:none}}
button[aria-disabled=true]{opacity:.6;cursor:progress}
.ref{text-align:center;font-size:12px;color:#7a8896;margin:0}
.ref code{font-family:inherit;direction:ltr;unicode-bidi:embed;overflow-wrap:anywhere}
`;

const LOCK = `<svg width="26" height="26" viewBox="0 0 24 24" fill="none" aria-hidden="true"><path d="M12 2l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V5l8-3z" fill="#fff" fill-opacity=".18" stroke="#fff" stroke-width="1.5"/><rect x="8" y="10.5" width="8" height="6.5" rx="1.2" fill="#fff"/><path d="M9.8 10.5V9a2.2 2.2 0 014.4 0v1.5" stroke="#fff" stroke-width="1.5"/></svg>`;
const FLASK = `<svg width="20" height="20" viewBox="0 0 24 24" fill="none" aria-hidden="true"><path d="M9 3h6M10 3v6L4.5 18.5A2 2 0 006.2 21.5h11.6a2 2 0 001.7-3L14 9V3" stroke="#8a6500" stroke-width="1.6" stroke-linejoin="round"/><path d="M7 15h10" stroke="#8a6500" stroke-width="1.6"/></svg>`;

function layout(nonce: string, title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="fa" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<header class="bar"><div class="bar-in">${LOCK}<h1>درگاه پرداخت اینترنتی</h1><span class="badge">آزمایشی</span></div></header>
<main>
<div class="test" role="note">${FLASK}<div><strong>درگاه آزمایشی (sandbox)</strong>این صفحه فقط برای آزمودن پرداخت است و هیچ پولی جابه‌جا نمی‌شود. شمارهٔ کارت واقعی وارد نکنید.</div></div>
${body}
<footer>درگاه آزمایشی ارزپی — شبیه‌ساز بانک، فقط برای آزمون</footer>
</main>
${script ? `<script nonce="${nonce}">${script}</script>` : ''}
</body>
</html>
`;
}

export interface PaymentPageInput {
  nonce: string;
  merchantName: string;
  authority: string;
  amount: number;
  description: string;
  /** Seconds left to answer (the countdown starts from it). */
  secondsLeft: number;
  /** Whether the page asks for the card holder's national code (holder mode; ZarinPal does not). */
  asksHolder: boolean;
  /** The card the merchant named (masked), the only one this payment takes; null: any card. */
  requiredCard: string | null;
  /** What the form shows: as typed when the page comes back with errors. */
  values: { cardNo: string; holderNationalCode: string };
  errors?: { cardNo?: string; holderNationalCode?: string };
}

const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  return toPersianDigits(`${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`);
};

/**
 * Once the form is sent the bank answers and the merchant verifies, which takes seconds: the page says so at once and
 * a second tap sends nothing. The buttons are marked, not disabled: a disabled submit button would drop its own
 * value (pay or cancel) from the form.
 */
const LEAVING = `(function(){var f=document.querySelector('form.card');var l=document.getElementById('leaving');if(!f||!l)return;f.addEventListener('submit',function(e){if(f.getAttribute('data-busy')){e.preventDefault();return}f.setAttribute('data-busy','1');var c=e.submitter&&e.submitter.value==='cancel';l.textContent=c?'در حال انصراف و بازگشت به سایت پذیرنده…':'در حال پرداخت و بازگشت به سایت پذیرنده…';l.hidden=false;Array.prototype.forEach.call(f.querySelectorAll('button'),function(b){b.setAttribute('aria-disabled','true')})})})();`;

/** Counts the seconds down on the page; at zero it says so and disables the pay button (the bank refuses anyway). */
const COUNTDOWN = `(function(){var el=document.getElementById('left');if(!el)return;var end=Date.now()+Number(el.getAttribute('data-seconds'))*1000;var fa=function(s){return s.replace(/[0-9]/g,function(d){return String.fromCharCode(0x6F0+Number(d))})};var pad=function(n){return (n<10?'0':'')+n};function tick(){var s=Math.max(0,Math.round((end-Date.now())/1000));el.textContent=fa(pad(Math.floor(s/60))+':'+pad(s%60));if(s===0){clearInterval(t);document.getElementById('expired').hidden=false;document.getElementById('pay').disabled=true}}var t=setInterval(tick,1000);tick()})();`;

export function paymentPage(input: PaymentPageInput): string {
  const errors = input.errors ?? {};
  const errorCount = Object.values(errors).filter(Boolean).length;
  const firstError = errors.cardNo ? 'cardNo' : errors.holderNationalCode ? 'holderNationalCode' : null;
  const field = (
    name: 'cardNo' | 'holderNationalCode',
    label: string,
    attrs: string,
    hint: string,
  ) => `<label for="${name}">${label}</label>
<input type="text" id="${name}" name="${name}" value="${escapeHtml(input.values[name])}" ${attrs}${
    errors[name]
      ? ` aria-invalid="true" aria-describedby="${name}-error"${name === firstError ? ' autofocus' : ''}`
      : ''
  }>
${errors[name] ? `<p class="field-error" id="${name}-error">${escapeHtml(errors[name])}</p>` : ''}<p class="hint">${hint}</p>`;
  const body = `<section class="card" aria-label="اطلاعات پرداخت">
<dl>
<dt>پذیرنده</dt><dd>${escapeHtml(input.merchantName)}</dd>
<dt>شرح</dt><dd class="desc">${escapeHtml(input.description)}</dd>
</dl>
<div class="amount"><div class="label">مبلغ قابل پرداخت</div><div class="value" id="amount">${escapeHtml(
    toPersianDigits(formatRial(input.amount)),
  )}</div><div class="words">${escapeHtml(rialInWords(input.amount))}</div></div>
</section>
<section class="card timer" aria-live="off"><span>زمان باقی‌مانده برای پرداخت</span><b><bdi dir="ltr" id="left" data-seconds="${Math.max(
    0,
    Math.floor(input.secondsLeft),
  )}">${clock(input.secondsLeft)}</bdi></b></section>
<span class="expired" id="expired" hidden>مهلت پرداخت به پایان رسید؛ به سایت پذیرنده برگردید و دوباره تلاش کنید.</span>
<form class="card" method="post" action="/sandbox-bank/pg/StartPay/${escapeHtml(input.authority)}" novalidate>
${errorCount ? `<div class="alert" role="alert">${errorCount > 1 ? 'اطلاعات واردشده را بررسی کنید.' : 'یکی از اطلاعات واردشده درست نیست.'}</div>` : ''}
${field(
  'cardNo',
  'شمارهٔ کارت',
  'inputmode="numeric" autocomplete="cc-number" maxlength="40" placeholder="---- ---- ---- ----"',
  input.requiredCard
    ? `پذیرنده فقط این کارت را می‌پذیرد: <bdi dir="ltr" id="required-card">${escapeHtml(
        toPersianDigits(groupCard(input.requiredCard)),
      )}</bdi>`
    : `شانزده رقم، با یا بدون فاصله. کارت آزمایشی: <bdi dir="ltr">${toPersianDigits(groupCard(SAMPLE_CARD))}</bdi>`,
)}
${
  input.asksHolder
    ? field(
        'holderNationalCode',
        'کد ملی دارندهٔ کارت',
        'inputmode="numeric" autocomplete="off" maxlength="20"',
        'بانک این کد را به‌عنوان صاحب کارت به پذیرنده اعلام می‌کند. برای آزمودن کارت شخص دیگر، کد ملی او را بنویسید.',
      )
    : ''
}
<p class="hint">در این درگاه آزمایشی رمز دوم، CVV2 و تاریخ انقضا لازم نیست.</p>
<div class="actions"><button type="submit" class="pay" id="pay" name="action" value="pay">پرداخت</button><button type="submit" class="cancel" name="action" value="cancel">انصراف</button></div>
<p class="leaving" id="leaving" role="status" hidden></p>
</form>
<p class="ref">شمارهٔ درخواست: <code>${escapeHtml(input.authority)}</code></p>`;
  return layout(
    input.nonce,
    `پرداخت ${toPersianDigits(formatRial(input.amount))} — درگاه آزمایشی`,
    body,
    COUNTDOWN + LEAVING,
  );
}

export interface NoticeInput {
  nonce: string;
  title: string;
  text: string;
  /** The way back to the merchant, when there is one. */
  back?: string;
}

export function noticePage(input: NoticeInput): string {
  const body = `<section class="card notice" role="status">
<h2>${escapeHtml(input.title)}</h2>
<p>${escapeHtml(input.text)}</p>
${input.back ? `<a class="button" href="${escapeHtml(input.back)}">بازگشت به سایت پذیرنده</a>` : ''}
</section>`;
  return layout(input.nonce, `${input.title} — درگاه آزمایشی`, body);
}
