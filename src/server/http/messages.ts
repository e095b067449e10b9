/** Persian user-facing messages, from schemas/messages/fa.json (one source for server and web). */
import catalogue from '../../../schemas/messages/fa.json' with { type: 'json' };

export type MessageKey = keyof typeof catalogue.messages;

const messages: Record<string, string> = catalogue.messages;

/** The message for `key`, with `{name}` placeholders filled from `params`. */
export function msg(key: MessageKey, params: Record<string, string | number> = {}): string {
  const text = messages[key] ?? messages['error.fallback'] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}
