/**
 * Where the live catalogue comes from, and how it stays current without a restart (decision 014):
 *
 * - The files under schemas/catalogue/desks and schemas/forms are the reviewed defaults. The folders are watched
 *   (and rescanned every few seconds, in case a watch event is lost); a file added, changed or removed is checked
 *   with the same meta-schemas and reference checks as `npm run schemas:check` (shared/catalogue-check.ts). A file
 *   that fails keeps its previous version live (or stays out, when it is new) and is reported: logged, and listed
 *   in `problems` for the staff catalogue page.
 * - A version staff published (table catalogue_versions) overrides the file of the same desk or form type; a
 *   version without a document returns it to its file. The newest versions are read at start, after a publish in
 *   this process, when another process announces one (the realtime server's peer messages, over Redis), and
 *   every `pollSeconds` as a fallback (one max(id) query).
 *
 * Each accepted change builds a new snapshot and replaces the live Catalogue's, whose subscribers (the live
 * channel's `catalogue.changed`, caches) hear of it.
 */
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Desk } from '../../../generated/schemas/desk';
import type { FormType } from '../../../generated/schemas/form';
import type { Plan } from '../../../generated/schemas/plan';
import type { WorkingCalendar } from '../../../generated/schemas/workingCalendar';
import {
  type CatalogueDocument,
  type CatalogueProblem,
  messageKeyProblems,
  calendarProblems,
  metaProblem,
  planProblems,
  referenceProblems,
} from '../../../shared/catalogue-check';
import { createAjv } from '../../../shared/validation/ajv';
import type { DB } from '../../db/database';
import { Catalogue, CatalogueSnapshot, type Category, jsonFilesIn, readCategories } from './catalogue';
import { type CatalogueKind, latestVersions, newestVersionId, type PublishedVersion } from './versions';

type Document = Record<string, unknown>;

interface FileEntry {
  kind: CatalogueKind;
  raw: string;
  data: Document;
}

/** A file added or changed (its entry) or removed (null). */
interface FileChange {
  kind: CatalogueKind;
  file: string;
  entry: FileEntry | null;
}

/** A problem of a file or a published version, and when it was found. */
export interface ReportedProblem extends CatalogueProblem {
  kind: CatalogueKind;
  at: string;
}

export const identifierOf = (kind: CatalogueKind, document: unknown): string | null => {
  const value = (document as Document | null)?.[kind === 'form' ? 'formType' : 'identifier'];
  return typeof value === 'string' ? value : null;
};

export interface CatalogueSourceOptions {
  db: DB;
  schemasDir: string;
  log: FastifyBaseLogger;
  /** Seconds between rescans of the folders and checks for versions published elsewhere. */
  pollSeconds?: number;
}

/** The peer message a process sends after a publish, so the others re-read the newest versions. */
export const CATALOGUE_PUBLISHED = 'catalogue:published';

export class CatalogueSource {
  readonly catalogue: Catalogue;
  private readonly files = new Map<string, FileEntry>();
  private published = new Map<string, PublishedVersion>();
  private newestId = 0;
  /** Problems of files refused (by file) and of published versions that no longer fit (by kind:identifier). */
  private readonly refused = new Map<string, ReportedProblem[]>();
  private readonly validators: Record<CatalogueKind, ReturnType<ReturnType<typeof createAjv>['compile']>>;
  private readonly messages: Record<string, string>;
  private readonly categories: Category[];
  private readonly dirs: Record<CatalogueKind, string>;
  private readonly watchers: FSWatcher[] = [];
  private timers: NodeJS.Timeout[] = [];
  private announcer: () => void = () => undefined;
  private rescanTimer: NodeJS.Timeout | null = null;
  /** One reload at a time: a file event during a publish waits for it. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly options: CatalogueSourceOptions) {
    const { schemasDir } = options;
    const ajv = createAjv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: false });
    const meta = (name: string) => JSON.parse(readFileSync(path.join(schemasDir, 'meta', name), 'utf8')) as object;
    this.validators = {
      desk: ajv.compile(meta('desk.schema.json')),
      form: ajv.compile(meta('form.schema.json')),
      plan: ajv.compile(meta('plan.schema.json')),
      calendar: ajv.compile(meta('workingCalendar.schema.json')),
    };
    this.messages = (
      JSON.parse(readFileSync(path.join(schemasDir, 'messages/fa.json'), 'utf8')) as {
        messages: Record<string, string>;
      }
    ).messages;
    this.categories = readCategories(schemasDir);
    this.dirs = {
      desk: path.join(schemasDir, 'catalogue/desks'),
      form: path.join(schemasDir, 'forms'),
      plan: path.join(schemasDir, 'plans'),
      calendar: path.join(schemasDir, 'calendars'),
    };
    this.catalogue = new Catalogue(new CatalogueSnapshot(this.categories, [], []));
  }

  /** Reads the files and the published versions; `watch` then keeps them current until `stop`. */
  static async start(options: CatalogueSourceOptions): Promise<CatalogueSource> {
    const source = new CatalogueSource(options);
    await source.reloadPublished(false);
    source.scanFiles();
    return source;
  }

  /** Label of a file in problems and logs: its path from the folder above schemas/ (`schemas/forms/x.json`). */
  private label(file: string): string {
    return path.relative(path.dirname(this.options.schemasDir), file);
  }

  // ---- composing and checking ----

  /** The documents the catalogue is built from: each file's last good version, overridden by published ones. */
  private compose(
    files: ReadonlyMap<string, FileEntry>,
    published: ReadonlyMap<string, PublishedVersion>,
  ): Record<CatalogueKind, CatalogueDocument[]> {
    const out: Record<CatalogueKind, CatalogueDocument[]> = { desk: [], form: [], plan: [], calendar: [] };
    const overridden = new Set<string>();
    for (const [file, entry] of files) {
      const id = identifierOf(entry.kind, entry.data);
      const version = id ? published.get(`${entry.kind}:${id}`) : undefined;
      if (version?.document) {
        overridden.add(`${entry.kind}:${id}`);
        out[entry.kind].push({ file: `published:${entry.kind}/${id}`, data: version.document });
      } else out[entry.kind].push({ file: this.label(file), data: entry.data });
    }
    for (const [key, version] of [...published].sort(([a], [b]) => a.localeCompare(b))) {
      if (overridden.has(key) || !version.document) continue;
      out[version.kind].push({ file: `published:${key.replace(':', '/')}`, data: version.document });
    }
    return out;
  }

  /** Problems of a composed catalogue, or the snapshot it builds. */
  private build(docs: Record<CatalogueKind, CatalogueDocument[]>): CatalogueSnapshot | CatalogueProblem[] {
    const problems = [
      ...referenceProblems(docs.form, docs.desk),
      ...planProblems(docs.plan, docs.desk, docs.form),
      ...calendarProblems(docs.calendar),
    ];
    if (problems.length > 0) return problems;
    try {
      return new CatalogueSnapshot(
        this.categories,
        docs.desk.map((d) => d.data as unknown as Desk),
        docs.form.map((d) => d.data as unknown as FormType),
        docs.plan.map((d) => d.data as unknown as Plan),
        docs.calendar.map((d) => d.data as unknown as WorkingCalendar),
      );
    } catch (error) {
      const reason = (error as Error).message;
      return [
        { file: '', pointer: '', message: reason, key: 'catalogue.problem.invalid', params: { keyword: reason } },
      ];
    }
  }

  /** A document alone: its meta-schema and its message keys. */
  private ownProblems(kind: CatalogueKind, file: string, data: unknown): CatalogueProblem[] {
    const validate = this.validators[kind];
    if (!validate(data)) return (validate.errors ?? []).map((e) => metaProblem(file, e));
    return messageKeyProblems({ file, data }, this.messages);
  }

  /**
   * What stops `document` from going live as the `kind` it claims to be, with everything else as it is now:
   * empty when it may be published.
   */
  check(kind: CatalogueKind, document: unknown): CatalogueProblem[] {
    const id = identifierOf(kind, document);
    const file = `published:${kind}/${id ?? '?'}`;
    const own = this.ownProblems(kind, file, document);
    if (own.length > 0 || !id) return own;
    const published = new Map(this.published);
    published.set(`${kind}:${id}`, {
      id: 0,
      kind,
      identifier: id,
      version: 0,
      document: document as Document,
      authorUserId: null,
      authorName: null,
      revertedTo: null,
      createdAt: '',
    });
    const built = this.build(this.compose(this.files, published));
    return Array.isArray(built) ? built : [];
  }

  // ---- files ----

  private report(key: string, kind: CatalogueKind, problems: CatalogueProblem[], what: string): void {
    const before = JSON.stringify(this.refused.get(key)?.map((p) => [p.pointer, p.message]));
    const at = new Date().toISOString();
    this.refused.set(
      key,
      problems.map((p) => ({ ...p, kind, at })),
    );
    if (before !== JSON.stringify(problems.map((p) => [p.pointer, p.message]))) {
      this.options.log.warn({ file: key, problems: problems.map((p) => `${p.file} ${p.pointer} ${p.message}`) }, what);
    }
  }

  /**
   * Reads the folders and takes every file that changed since the last look: all at once when together they fit,
   * else one at a time (forms, desks, then plans, so a new desk may name a new form type and a plan a new desk). A file that fails its own checks, or
   * makes the catalogue inconsistent, is refused and its previous version stays. Then replaces the live snapshot.
   */
  scanFiles(): void {
    const changes: FileChange[] = [];
    for (const kind of ['form', 'desk', 'plan', 'calendar'] as const) {
      let present: string[];
      try {
        present = jsonFilesIn(this.dirs[kind]);
      } catch {
        present = [];
      }
      const known = [...this.files].filter(([, e]) => e.kind === kind).map(([f]) => f);
      const refused = [...this.refused.keys()].filter((k) => k.startsWith(this.dirs[kind]));
      for (const file of new Set([...present, ...known, ...refused])) {
        const change = this.readChange(kind, file, present.includes(file));
        if (change) changes.push(change);
      }
    }
    if (changes.length === 0) return;
    const apply = (into: Map<string, FileEntry>, change: FileChange) => {
      if (change.entry) into.set(change.file, change.entry);
      else into.delete(change.file);
    };
    const all = new Map(this.files);
    for (const change of changes) apply(all, change);
    const accepted: FileChange[] = [];
    const together = !Array.isArray(this.build(this.compose(all, this.published)));
    if (together) {
      for (const change of changes) apply(this.files, change);
      accepted.push(...changes);
    } else {
      for (const change of changes) {
        const candidate = new Map(this.files);
        apply(candidate, change);
        const built = this.build(this.compose(candidate, this.published));
        if (Array.isArray(built)) {
          this.report(change.file, change.kind, built, 'catalogue file refused; its previous version stays live');
          continue;
        }
        apply(this.files, change);
        accepted.push(change);
      }
    }
    for (const change of accepted) this.refused.delete(change.file);
    if (accepted.length > 0) {
      this.options.log.info(
        { files: accepted.map((c) => this.label(c.file)), removed: accepted.filter((c) => !c.entry).length },
        'catalogue files live',
      );
      this.rebuild();
    }
  }

  /** A file's new content when it differs from the version taken and passes its own checks (else reported). */
  private readChange(kind: CatalogueKind, file: string, exists: boolean): FileChange | null {
    let raw: string | null = null;
    if (exists) {
      try {
        raw = readFileSync(file, 'utf8');
      } catch {
        raw = null;
      }
    }
    const previous = this.files.get(file);
    if ((raw !== null && raw === previous?.raw) || (raw === null && !previous)) {
      this.refused.delete(file);
      return null;
    }
    if (raw === null) return { kind, file, entry: null };
    const label = this.label(file);
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch (error) {
      const reason = (error as Error).message;
      const notJson = { file: label, pointer: '', message: `not valid JSON: ${reason}` };
      this.report(
        file,
        kind,
        [{ ...notJson, key: 'catalogue.problem.notJson', params: { reason } }],
        'catalogue file refused; its previous version stays live',
      );
      return null;
    }
    const own = this.ownProblems(kind, label, data);
    if (own.length > 0) {
      this.report(file, kind, own, 'catalogue file refused; its previous version stays live');
      return null;
    }
    return { kind, file, entry: { kind, raw, data: data as Document } };
  }

  private rebuild(): void {
    const built = this.build(this.compose(this.files, this.published));
    if (Array.isArray(built)) {
      this.report('published', 'desk', built, 'catalogue does not fit together; the previous one stays live');
      return;
    }
    this.refused.delete('published');
    this.catalogue.replace(built);
  }

  // ---- published versions ----

  /** Reads the newest published versions (when any was published since the last look, unless `force`). */
  async reloadPublished(onlyIfNewer = true): Promise<void> {
    const run = async () => {
      const newest = await newestVersionId(this.options.db);
      if (onlyIfNewer && newest === this.newestId) return;
      const latest = await latestVersions(this.options.db);
      this.newestId = newest;
      this.published = new Map(latest.map((v) => [`${v.kind}:${v.identifier}`, v]));
      this.rebuild();
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The newest published version of each desk and form type. */
  publishedVersion(kind: CatalogueKind, identifier: string): PublishedVersion | undefined {
    return this.published.get(`${kind}:${identifier}`);
  }

  /** The reviewed file of a desk or form type, as last taken. */
  fileDocument(kind: CatalogueKind, identifier: string): { file: string; document: Document } | undefined {
    for (const [file, entry] of this.files) {
      if (entry.kind === kind && identifierOf(kind, entry.data) === identifier)
        return { file: this.label(file), document: entry.data };
    }
    return undefined;
  }

  /** Every problem found and not yet resolved, newest first. */
  problems(): ReportedProblem[] {
    return [...this.refused.values()].flat().sort((a, b) => b.at.localeCompare(a.at));
  }

  // ---- running ----

  /** How this process tells the others that a version was published (the realtime server's peer messages). */
  announceWith(announcer: () => void): void {
    this.announcer = announcer;
  }

  /** Tells the other processes that a version was published (they re-read the table). */
  announce(): void {
    this.announcer();
  }

  /** Watches the folders, and polls the folders and the table as a fallback. */
  watch(): void {
    const onFileEvent = () => {
      if (this.rescanTimer) clearTimeout(this.rescanTimer);
      // Editors write a file in several steps: look once they are done.
      this.rescanTimer = setTimeout(() => {
        this.rescanTimer = null;
        this.scanFiles();
      }, 150);
    };
    for (const dir of Object.values(this.dirs)) {
      try {
        const watcher = watch(dir, onFileEvent);
        watcher.on('error', () => undefined);
        this.watchers.push(watcher);
      } catch (error) {
        this.options.log.warn({ err: error, dir }, 'catalogue folder not watched; rescanned periodically');
      }
    }
    const poll = (this.options.pollSeconds ?? 10) * 1000;
    const timer = setInterval(() => {
      this.scanFiles();
      this.reloadPublished().catch((error: unknown) =>
        this.options.log.warn({ err: error }, 'reading published catalogue versions failed'),
      );
    }, poll);
    timer.unref();
    this.timers.push(timer);
  }

  async stop(): Promise<void> {
    for (const w of this.watchers) w.close();
    for (const t of this.timers) clearInterval(t);
    if (this.rescanTimer) clearTimeout(this.rescanTimer);
    await this.queue;
  }
}
