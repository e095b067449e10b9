/** Sends one image to api/me/uploadFile (multipart goes through fetch: the JSON client does not encode files). */
import { TOKEN_KEY } from '../../../lib/api-client';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const NOT_AN_IMAGE = 'امکان انتخاب عکس وجود ندارد.';
export const NOT_AN_IMAGE_OR_PDF = 'فقط تصویر یا فایل PDF را می‌توان انتخاب کرد.';

/** The stored path and a signed link to show it; throws the server's envelope when refused. */
export async function uploadImage(file: File, filePrefix: string): Promise<{ path: string; url: string | null }> {
  const form = new FormData();
  form.set('filePrefix', filePrefix);
  form.set('attached_file', file);
  const token = localStorage.getItem(TOKEN_KEY);
  const res = await fetch('/api/me/uploadFile', {
    method: 'POST',
    headers: { 'X-Requested-With': 'XMLHttpRequest', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: form,
  });
  const body = (await res.json()) as { result: boolean; msg?: string; path?: string; url?: string };
  if (!res.ok || !body.result || !body.path) throw body;
  return { path: body.path, url: body.url ?? null };
}
