/**
 * Log-in with the two modes of SPEC section 4 (code, password) and the e-mail form with a captcha.
 * Success stores the token and fetches the user; failure clears the token (and, for e-mail, the user).
 */
import { ReloadIcon } from '@radix-ui/react-icons';
import { Box, Button, Callout, Flex, IconButton, Tabs, Text, TextField } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import messages from '../../../../schemas/messages/fa.json';
import { toEnglishDigits } from '../../../shared/digits';
import { canonicalMobile } from '../../../shared/mobile';
import { isValidMobile, isValidNationalCode } from '../../../shared/validation/identity-numbers';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { logInWith } from '../../lib/session';
import { mmss, useCountdown } from '../../lib/useCountdown';
import { FormField } from '../../components/FormField';

const m = messages.messages;

function ServerError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <Callout.Root color="red" role="alert">
      <Callout.Text>{text}</Callout.Text>
    </Callout.Root>
  );
}

function CodeLogin({ onDone }: { onDone: () => void }) {
  const [mobileNo, setMobileNo] = useState('');
  const [code, setCode] = useState('');
  const [deadline, setDeadline] = useState<number | null>(null);
  const [activeNotice, setActiveNotice] = useState(false);
  const [touched, setTouched] = useState({ mobile: false, code: false });
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const left = useCountdown(deadline);
  const counting = left > 0;

  const mobileError = !mobileNo
    ? m['login.mobileNo.required']
    : !isValidMobile(mobileNo)
      ? m['login.mobileNo.invalid']
      : null;
  const codeError = !code.trim() ? m['login.validationCode.required'] : null;

  const send = async (e: FormEvent) => {
    e.preventDefault();
    setTouched((t) => ({ ...t, mobile: true }));
    if (mobileError) return;
    setBusy(true);
    setServerError(null);
    try {
      const data = await call<{ expirationDuration: number; activeCodeExists: boolean }>(
        api.POST('/api/public/sendMobileValidationCode', { body: { mobileNo: canonicalMobile(mobileNo) ?? mobileNo } }),
      );
      setDeadline(Date.now() + data.expirationDuration * 1000);
      setActiveNotice(data.activeCodeExists);
    } catch (error) {
      setDeadline(null);
      setServerError(digMessage(error) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  const login = async () => {
    setTouched({ mobile: true, code: true });
    if (mobileError || codeError || !counting) return;
    setBusy(true);
    setServerError(null);
    const error = await logInWith(
      api.POST('/api/me/loginByMobileValidationCode', {
        body: { mobileNo: canonicalMobile(mobileNo) ?? mobileNo, validationCode: toEnglishDigits(code) },
      }),
    );
    setBusy(false);
    if (!error) return onDone();
    setServerError(error);
  };

  return (
    <form onSubmit={send} noValidate>
      <Flex direction="column" gap="3">
        <FormField id="login-mobile" label="شماره موبایل" error={touched.mobile ? mobileError : null}>
          <TextField.Root
            id="login-mobile"
            inputMode="tel"
            autoComplete="tel"
            dir="ltr"
            placeholder="۰۹۱۲۳۴۵۶۷۸۹"
            value={mobileNo}
            onChange={(e) => setMobileNo(e.target.value)}
            onBlur={() => setTouched((t) => ({ ...t, mobile: true }))}
            aria-invalid={touched.mobile && Boolean(mobileError)}
          />
        </FormField>
        <Button type="submit" variant={counting ? 'soft' : 'solid'} loading={busy && !counting} data-testid="send-code">
          {counting ? 'ارسال دوباره کد' : 'ارسال کد تایید'}
        </Button>
        {activeNotice && counting && (
          <Callout.Root color="orange" data-testid="active-code-notice">
            <Callout.Text>{m['login.activeCodeExists']}</Callout.Text>
          </Callout.Root>
        )}
        <FormField id="login-code" label="کد تایید" error={touched.code ? codeError : null}>
          <TextField.Root
            id="login-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            dir="ltr"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void login();
              }
            }}
            aria-invalid={touched.code && Boolean(codeError)}
          />
        </FormField>
        <Flex align="center" justify="between" gap="3">
          {/* The time left on the code; before a code is sent, or once it has expired, what to do instead. */}
          {counting ? (
            <Text size="2" color="teal" className="ltr" data-testid="countdown" aria-live="off">
              {mmss(left)}
            </Text>
          ) : (
            <Text size="2" color="gray" data-testid="code-hint">
              {deadline === null ? 'ابتدا کد تایید را دریافت کنید.' : 'کد منقضی شد؛ دوباره ارسال کنید.'}
            </Text>
          )}
          <Button
            type="button"
            onClick={() => void login()}
            disabled={!counting}
            loading={busy && counting}
            data-testid="login-by-code"
          >
            ورود
          </Button>
        </Flex>
        <ServerError text={serverError} />
      </Flex>
    </form>
  );
}

function PasswordLogin({ onDone }: { onDone: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const usernameError = !(isValidMobile(username) || isValidNationalCode(username))
    ? m['login.username.invalid']
    : null;
  const passwordError = !password ? m['login.password.required'] : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (usernameError || passwordError) return;
    setBusy(true);
    setServerError(null);
    const error = await logInWith(
      api.POST('/api/me/loginByPassword', { body: { username: toEnglishDigits(username), password } }),
    );
    setBusy(false);
    if (!error) return onDone();
    setServerError(error);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Flex direction="column" gap="3">
        <FormField id="login-username" label="موبایل یا کد ملی" error={touched ? usernameError : null}>
          <TextField.Root
            id="login-username"
            dir="ltr"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </FormField>
        <FormField id="login-password" label="رمز عبور" error={touched ? passwordError : null}>
          <TextField.Root
            id="login-password"
            type="password"
            dir="ltr"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </FormField>
        <Button type="submit" loading={busy} data-testid="login-by-password">
          ورود
        </Button>
        <ServerError text={serverError} />
      </Flex>
    </form>
  );
}

function EmailLogin({ onDone }: { onDone: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [captcha, setCaptcha] = useState('');
  const [captchaData, setCaptchaData] = useState<{ url: string; captchaKey: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const loadCaptcha = async () => {
    setCaptcha('');
    try {
      setCaptchaData(await call<{ url: string; captchaKey: string }>(api.POST('/api/public/createCaptcha')));
    } catch (error) {
      setServerError(digMessage(error) ?? FALLBACK_MESSAGE);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!captchaData) return;
    setBusy(true);
    setServerError(null);
    const error = await logInWith(
      api.POST('/api/login', {
        body: {
          email: email.trim(),
          password,
          captcha: toEnglishDigits(captcha),
          captchaKey: captchaData.captchaKey,
        },
      }),
    );
    setBusy(false);
    if (!error) return onDone();
    setServerError(error);
    // A captcha is spent by any attempt: show a new one.
    void loadCaptcha();
  };

  return (
    <form onSubmit={submit}>
      <Flex direction="column" gap="3">
        <FormField id="login-email" label="ایمیل">
          <TextField.Root
            id="login-email"
            type="email"
            dir="ltr"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </FormField>
        <FormField id="login-email-password" label="رمز عبور">
          <TextField.Root
            id="login-email-password"
            type="password"
            dir="ltr"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </FormField>
        {captchaData ? (
          <FormField id="login-captcha" label="کد امنیتی تصویر">
            <Flex gap="2" align="center">
              <img src={captchaData.url} alt="کد امنیتی" width={170} height={56} style={{ borderRadius: 8 }} />
              <IconButton type="button" variant="soft" onClick={() => void loadCaptcha()} aria-label="تصویر جدید">
                <ReloadIcon />
              </IconButton>
            </Flex>
            <TextField.Root
              id="login-captcha"
              dir="ltr"
              inputMode="numeric"
              required
              value={captcha}
              onChange={(e) => setCaptcha(e.target.value)}
            />
          </FormField>
        ) : (
          <Button type="button" variant="soft" onClick={() => void loadCaptcha()}>
            نمایش کد امنیتی
          </Button>
        )}
        <Button type="submit" loading={busy} disabled={!captchaData}>
          ورود با ایمیل
        </Button>
        <ServerError text={serverError} />
      </Flex>
    </form>
  );
}

export function LoginForm({ onDone }: { onDone: () => void }) {
  return (
    <Tabs.Root defaultValue="code">
      <Tabs.List>
        <Tabs.Trigger value="code">ورود با کد پیامکی</Tabs.Trigger>
        <Tabs.Trigger value="password">ورود با رمز عبور</Tabs.Trigger>
        <Tabs.Trigger value="email">ایمیل</Tabs.Trigger>
      </Tabs.List>
      <Box pt="4">
        <Tabs.Content value="code">
          <CodeLogin onDone={onDone} />
        </Tabs.Content>
        <Tabs.Content value="password">
          <PasswordLogin onDone={onDone} />
        </Tabs.Content>
        <Tabs.Content value="email">
          <EmailLogin onDone={onDone} />
        </Tabs.Content>
      </Box>
    </Tabs.Root>
  );
}
