/** The snackbar of SPEC section 8: one message at a time, red by default, gone after its timeout. */
import { Callout } from '@radix-ui/themes';
import { atom, useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { store } from '../../lib/store';

type Color = 'red' | 'green' | 'orange' | 'blue';
interface Snack {
  id: number;
  text: string;
  color: Color;
  timeout: number;
}

/** SPEC section 8: the user module's messages (staff managing users, groups and access) stay 5 s, the others 3 s. */
export const USER_MODULE_TIMEOUT = 5000;

const snackAtom = atom<Snack | null>(null);
let nextId = 1;

export function showSnackbar(text: string, color: Color = 'red', timeout = 3000): void {
  store.set(snackAtom, { id: nextId++, text, color, timeout });
}

/** Shows the Persian message found in an error (or the fallback text). */
export function showError(error: unknown): void {
  showSnackbar(digMessage(error) ?? FALLBACK_MESSAGE, 'red', 3000);
}

export function Snackbar() {
  const snack = useAtomValue(snackAtom);
  useEffect(() => {
    if (!snack) return;
    const timer = setTimeout(() => {
      if (store.get(snackAtom)?.id === snack.id) store.set(snackAtom, null);
    }, snack.timeout);
    return () => clearTimeout(timer);
  }, [snack]);
  if (!snack) return null;
  return (
    <div
      style={{
        position: 'fixed',
        insetInline: 12,
        bottom: 16,
        zIndex: 2000,
        display: 'flex',
        justifyContent: 'center',
      }}
    >
      <Callout.Root
        color={snack.color}
        variant="surface"
        role="status"
        aria-live="polite"
        style={{ boxShadow: 'var(--shadow-6)', background: 'var(--color-panel-solid)' }}
      >
        <Callout.Text>{snack.text}</Callout.Text>
      </Callout.Root>
    </div>
  );
}
