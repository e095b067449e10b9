import { describe, expect, it } from 'vitest';
import messages from '../../schemas/messages/fa.json';
import { FALLBACK_MESSAGE } from '../../src/web/lib/api-client';

describe('the web client’s fallback message', () => {
  it('is the catalogue’s error.fallback, written out so the first page does not carry every message', () => {
    expect(FALLBACK_MESSAGE).toBe(messages.messages['error.fallback']);
  });
});
