/**
 * `/form-validators/<key>.js`: a desk form's precompiled validators as a script of this origin (decision 015), so
 * the browser validates without Ajv's compiler and the Content-Security-Policy needs no 'unsafe-eval'.
 *
 * The build writes the module of every desk of schemas/ into the web's `form-validators/` folder, which the static
 * plugin serves (precompressed). A desk published after the build (decision 014), or a draft in the staff
 * catalogue editor's preview, has none there: this route makes the same module for it with the same generator
 * (src/shared/validation/standalone.ts), from the schema the server knows under that key — a desk of the live
 * catalogue, or a draft the editor's check has just passed. Anything else is a 404. The server validates every
 * submission itself anyway; this only lets the page say what is wrong before sending.
 */
import type { FastifyInstance } from 'fastify';
import type { JsonSchemaObject } from '../../../shared/catalogue';
import { effectiveForm } from '../../../shared/catalogue';
import { formValidatorModule } from '../../../shared/validation/standalone';
import { formValidatorKey } from '../../../shared/validation/validator-key';
import type { Catalogue, CatalogueSnapshot, Desk, FormType } from './catalogue';
import { msg } from '../../http/messages';

/** Drafts kept for their previews; the oldest goes first. A draft is the editor's text, not customer data. */
const MAX_DRAFTS = 200;
const MAX_MODULES = 500;

export class FormValidatorModules {
  private readonly liveKeys = new WeakMap<CatalogueSnapshot, Map<string, JsonSchemaObject>>();
  private readonly drafts = new Map<string, JsonSchemaObject>();
  private readonly modules = new Map<string, string>();

  constructor(private readonly catalogue: Catalogue) {}

  /** The effective schemas a draft's preview draws (as the editor page computes them), remembered by key. */
  rememberDraft(kind: 'desk' | 'form' | 'plan' | 'calendar', document: Record<string, unknown>): void {
    if (kind === 'plan' || kind === 'calendar') return; // no form of its own to preview
    const snapshot = this.catalogue.snapshot;
    const schemas: JsonSchemaObject[] = [];
    if (kind === 'desk') {
      const desk = document as unknown as Desk;
      const form = snapshot.forms.find((f) => f.formType === desk.formType);
      if (form) schemas.push(effectiveForm(desk, form).schema);
    } else {
      const form = document as unknown as FormType;
      const desks = snapshot.desks.filter((d) => d.formType === form.formType);
      const preview = { identifier: 'preview', formType: form.formType, comps: {} } as unknown as Desk;
      for (const desk of [...desks, preview]) schemas.push(effectiveForm(desk, form).schema);
    }
    for (const schema of schemas) {
      const key = formValidatorKey(schema);
      this.drafts.delete(key);
      this.drafts.set(key, schema);
      if (this.drafts.size > MAX_DRAFTS) this.drafts.delete(this.drafts.keys().next().value!);
    }
  }

  private schemaFor(key: string): JsonSchemaObject | undefined {
    const snapshot = this.catalogue.snapshot;
    let live = this.liveKeys.get(snapshot);
    if (!live) {
      live = new Map([...snapshot.deskForms.values()].map((d) => [formValidatorKey(d.schema), d.schema]));
      this.liveKeys.set(snapshot, live);
    }
    return live.get(key) ?? this.drafts.get(key);
  }

  /** The module's text for a key the server knows, else undefined. */
  moduleFor(key: string): string | undefined {
    const cached = this.modules.get(key);
    if (cached) return cached;
    const schema = this.schemaFor(key);
    if (!schema) return undefined;
    const code = formValidatorModule(schema);
    this.modules.set(key, code);
    if (this.modules.size > MAX_MODULES) this.modules.delete(this.modules.keys().next().value!);
    return code;
  }
}

export function registerFormValidators(fastify: FastifyInstance, modules: FormValidatorModules): void {
  // The build's files are routes of the static plugin (more specific than this one) and win over it.
  fastify.get<{ Params: { file: string } }>('/form-validators/:file', async (request, reply) => {
    const key = /^(-?[0-9a-f]{1,8})\.js$/.exec(request.params.file)?.[1];
    const code = key === undefined ? undefined : modules.moduleFor(key);
    if (code === undefined) return reply.status(404).send({ result: false, msg: msg('http.notFound'), data: null });
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(code);
  });
}
