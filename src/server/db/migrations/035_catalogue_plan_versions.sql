-- Plan templates (schemas/plans, decision 030) are published from the catalogue editor like desks and form types:
-- catalogue_versions takes a third kind.

alter table catalogue_versions drop constraint catalogue_versions_kind_check;
alter table catalogue_versions add constraint catalogue_versions_kind_check check (kind in ('desk', 'form', 'plan'));
comment on column catalogue_versions.kind is 'desk (schemas/catalogue/desks), form (schemas/forms) or plan (schemas/plans)';
comment on column catalogue_versions.identifier is 'The desk identifier, the form type name or the plan template identifier';
comment on table catalogue_versions is 'Published versions of desks, form types and plan templates; the newest per kind and identifier is live';
