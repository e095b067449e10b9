/**
 * The staff catalogue page's operations (manageCatalogue): every desk, form type and plan template with its JSON, a check as one
 * types, publish as a new version (author, time, audit) and return to any earlier version or to the reviewed file.
 * Publishing goes live here at once and in the other processes through the catalogue source (live-source.ts).
 */
import type { components } from '../../../generated/api';
import type { CatalogueProblem } from '../../../shared/catalogue-check';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError, ok } from '../../http/errors';
import { type MessageKey, msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { type CatalogueSource, identifierOf } from './live-source';
import { type CatalogueKind, insertVersion, type PublishedVersion, versionById, versionsOf } from './versions';
import { toPersianDigits } from '../../../shared/digits';

type ProblemDto = components['schemas']['CatalogueProblem'];
type VersionDto = components['schemas']['CatalogueVersion'];

const problemDto = (p: CatalogueProblem & { kind?: CatalogueKind; at?: string }): ProblemDto => ({
  ...(p.kind ? { kind: p.kind } : {}),
  file: p.file,
  pointer: p.pointer,
  msg: msg(p.key as MessageKey, p.params),
  ...(p.at ? { at: p.at } : {}),
});

const titleOf = (kind: CatalogueKind, document: Record<string, unknown>): string => {
  if (kind !== 'form') return String(document.title ?? document.identifier ?? '');
  if (typeof document.title === 'string' && document.title) return document.title;
  const schema = document.schema as { title?: unknown } | undefined;
  return typeof schema?.title === 'string' ? schema.title : String(document.formType ?? '');
};

export function catalogueEditorHandlers(
  db: DB,
  source: CatalogueSource,
  /** Told of each draft that passed the check, so its preview's validators can be served (form-validators.ts). */
  onDraftPassed: (kind: CatalogueKind, document: Record<string, unknown>) => void = () => undefined,
): Pick<
  Handlers,
  | 'fetchCatalogueEntries'
  | 'checkCatalogueEntry'
  | 'publishCatalogueEntry'
  | 'searchCatalogueVersions'
  | 'revertCatalogueEntry'
> {
  const { catalogue } = source;

  /** A version as the contract shows it: `revertedTo` is the version number returned to (0: the file). */
  const versionDto = async (v: PublishedVersion): Promise<VersionDto> => {
    let revertedTo: number | null = null;
    if (v.revertedTo !== null) revertedTo = (await versionById(db, v.revertedTo))?.version ?? null;
    else if (v.document === null) revertedTo = 0;
    return {
      id: v.id,
      kind: v.kind,
      identifier: v.identifier,
      version: v.version,
      document: v.document,
      authorName: v.authorName,
      createdAt: v.createdAt,
      revertedTo,
    };
  };

  /** Stores the next version after the same checks as schemas:check, then makes it live everywhere. */
  const store = async (
    kind: CatalogueKind,
    identifier: string,
    document: Record<string, unknown> | null,
    userId: number,
    action: 'publishCatalogueEntry' | 'revertCatalogueEntry',
    revertedTo: number | null = null,
  ): Promise<PublishedVersion> => {
    const effective = document ?? source.fileDocument(kind, identifier)?.document;
    if (!effective) throw HttpError.of(404, 'catalogue.noFile');
    const problems = source.check(kind, effective);
    if (problems.length > 0) {
      const dtos = problems.map(problemDto);
      throw new HttpError(422, msg('catalogue.invalid', { count: problems.length, first: dtos[0]!.msg }), {
        problems: dtos,
      });
    }
    const before = source.publishedVersion(kind, identifier);
    const saved = await db.transaction().execute(async (trx) => {
      const row = await insertVersion(trx, { kind, identifier, document, authorUserId: userId, revertedTo });
      await audit(trx, {
        actorUserId: userId,
        action,
        entity: `catalogue.${kind}`,
        entityId: identifier,
        before: before ? { version: before.version, document: before.document } : null,
        after: { version: row.version, document, revertedTo },
      });
      return row;
    });
    await source.reloadPublished();
    source.announce();
    return (await versionById(db, saved.id))!;
  };

  return {
    fetchCatalogueEntries: async () => {
      const snapshot = catalogue.snapshot;
      const entries = [
        ...snapshot.forms.map((f) => ({ kind: 'form' as const, document: f as unknown as Record<string, unknown> })),
        ...snapshot.desks.map((d) => ({ kind: 'desk' as const, document: d as unknown as Record<string, unknown> })),
        ...snapshot.plans.map((p) => ({ kind: 'plan' as const, document: p as unknown as Record<string, unknown> })),
        ...snapshot.calendars.map((c) => ({
          kind: 'calendar' as const,
          document: c as unknown as Record<string, unknown>,
        })),
      ].map(({ kind, document }) => {
        const identifier = identifierOf(kind, document) ?? '';
        const published = source.publishedVersion(kind, identifier);
        return {
          kind,
          identifier,
          title: titleOf(kind, document),
          document,
          source: published?.document ? ('published' as const) : ('file' as const),
          file: source.fileDocument(kind, identifier)?.file ?? null,
          version: published?.version ?? null,
        };
      });
      return ok({ entries, problems: source.problems().map(problemDto) });
    },

    checkCatalogueEntry: async ({ body }) => {
      const problems = source.check(body.kind, body.document);
      if (problems.length === 0) onDraftPassed(body.kind, body.document);
      return ok({ problems: problems.map(problemDto) });
    },

    publishCatalogueEntry: async ({ body, principal }) => {
      const identifier = identifierOf(body.kind, body.document);
      if (!identifier) {
        const problems = source.check(body.kind, body.document).map(problemDto);
        throw new HttpError(422, msg('catalogue.invalid', { count: problems.length, first: problems[0]?.msg ?? '' }), {
          problems,
        });
      }
      const saved = await store(body.kind, identifier, body.document, principal!.userId, 'publishCatalogueEntry');
      return ok(await versionDto(saved), msg('catalogue.published', { version: toPersianDigits(saved.version) }));
    },

    searchCatalogueVersions: async ({ body }) => {
      const items = await versionsOf(db, body.kind, body.identifier);
      const file = source.fileDocument(body.kind, body.identifier) ?? null;
      if (items.length === 0 && !file) throw HttpError.of(404, 'catalogue.notFound');
      return ok({ items: await Promise.all(items.map(versionDto)), file });
    },

    revertCatalogueEntry: async ({ body, principal }) => {
      if (body.versionId === null) {
        const saved = await store(body.kind, body.identifier, null, principal!.userId, 'revertCatalogueEntry');
        return ok(await versionDto(saved), msg('catalogue.revertedToFile'));
      }
      const target = await versionById(db, body.versionId);
      if (!target || target.kind !== body.kind || target.identifier !== body.identifier)
        throw HttpError.of(404, 'catalogue.versionNotFound');
      const saved = await store(
        body.kind,
        body.identifier,
        target.document,
        principal!.userId,
        'revertCatalogueEntry',
        target.id,
      );
      return ok(
        await versionDto(saved),
        msg('catalogue.reverted', {
          version: toPersianDigits(target.version),
          newVersion: toPersianDigits(saved.version),
        }),
      );
    },
  };
}
