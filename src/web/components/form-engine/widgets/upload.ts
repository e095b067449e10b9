/** Sends a file to api/me/uploadFile (multipart goes through fetch or XHR: the JSON client does not encode files). */
import { FALLBACK_MESSAGE, TOKEN_KEY } from '../../../lib/api-client';

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

/**
 * Sends one file for a desk form's file field (`desk` and `field` name it, so the server applies that field's
 * declared limits), through XMLHttpRequest so the upload's progress can be shown: `onProgress` gets 0–100. Resolves
 * with the stored path and a signed link; rejects with the server's Persian message (or the fallback).
 */
export function uploadFieldFile(
  file: File,
  target: { desk: string; field: string },
  onProgress: (percent: number) => void,
): Promise<{ path: string; url: string | null }> {
  const form = new FormData();
  form.set('desk', target.desk);
  form.set('field', target.field);
  form.set('attached_file', file);
  const token = localStorage.getItem(TOKEN_KEY);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/me/uploadFile');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onerror = () => reject(new Error(FALLBACK_MESSAGE));
    xhr.onload = () => {
      let body: { result?: boolean; msg?: string; path?: string; url?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // Not our envelope (a proxy's page): the fallback below.
      }
      if (xhr.status >= 200 && xhr.status < 300 && body.result && body.path) {
        resolve({ path: body.path, url: body.url ?? null });
      } else {
        reject(new Error(body.msg || FALLBACK_MESSAGE));
      }
    };
    xhr.send(form);
  });
}
