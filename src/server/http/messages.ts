/** Persian user-facing messages, from schemas/messages/fa.json (one source for server and web). */
import catalogue from '../../../schemas/messages/fa.json' with { type: 'json' };
import { toPersianDigits } from '../../shared/digits';

export type MessageKey = keyof typeof catalogue.messages;

const messages: Record<string, string> = catalogue.messages;

/** The message for `key`, with `{name}` placeholders filled from `params`. */
export function msg(key: MessageKey, params: Record<string, string | number> = {}): string {
  const text = messages[key] ?? messages['error.fallback'] ?? key;
  // A number a person reads is in Persian digits (a count, a limit); a string (a code to type) stays as given.
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    return typeof value === 'number' ? toPersianDigits(value) : (value ?? '');
  });
}
