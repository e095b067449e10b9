/**
 * A data-entry form (the profile, the staff dialogs) described by a JSON schema under `schemas/entryForms/` and
 * drawn by the same rjsf theme as the desks (docs/decisions/009). The caller keeps the data (controlled) and puts
 * its own buttons inside as children, so a submit button submits this form.
 *
 * What a field shows: a value that breaks a rule says so as it is typed; an empty required field says it is
 * missing once it has been left (coming back to it lets it be typed again first) or once a submit was tried.
 * A submit with any problem shows every one of them and does not reach `onSubmit`.
 * Rules across fields (a repeated password) come as `crossFieldErrors`, shown the same way.
 */
import type Form from '@rjsf/core';
import type { FormValidation, RJSFValidationError, UiSchema } from '@rjsf/utils';
import { type ReactNode, useCallback, useEffect, useMemo, useRef } from 'react';
import type { JsonSchemaObject } from '../../../shared/catalogue';
import { RadixForm } from './theme';
import { persianTranslator } from './translator';
import type { ValidatorFactory } from '../../../shared/validation/standalone-runtime';
import { useLatestReport } from './useLatestReport';
import { drawnSchema, type FormValidator, importedValidators, persianErrors, validatorFor } from './validator';

export type FormData = Record<string, unknown>;

/** A form of `schemas/entryForms/` (meta-schema `schemas/meta/entryForm.schema.json`). */
export interface EntryFormDefinition {
  form: string;
  operation?: string;
  schema: JsonSchemaObject;
  uiSchema: Record<string, unknown>;
  /** Its precompiled validator (decision 015). */
  validator: FormValidator;
}

/**
 * A JSON import of `schemas/entryForms/*.json`, typed (the meta-schema checks its shape in `npm test`), with its
 * validators as `npm run codegen` wrote them (`src/generated/form-validators/<form>.ts`, imported beside the JSON).
 */
export function asEntryForm(json: unknown, validators: ValidatorFactory): EntryFormDefinition {
  const form = json as Omit<EntryFormDefinition, 'validator'>;
  return { ...form, validator: validatorFor(form.schema, importedValidators(validators)) };
}

/** Per field, the Persian message of its first problem. */
export type FieldErrors = Partial<Record<string, string>>;

/** Rules across fields: per field, the Persian message it shows. */
export type CrossFieldRule = (data: FormData) => FieldErrors;

const fieldOf = (error: RJSFValidationError): string =>
  error.name === 'required'
    ? String((error.params as { missingProperty?: string }).missingProperty ?? '')
    : ((error.property ?? '').replace(/^\./, '').split('.')[0] ?? '');

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** Every problem of the data, field by field: what the form would show after a submit. */
export function entryFormErrors(form: EntryFormDefinition, data: FormData, crossField?: CrossFieldRule): FieldErrors {
  const errors: FieldErrors = {};
  const found = form.validator.validateFormData(data, form.schema as never, undefined, persianErrors(form.schema));
  for (const error of found.errors) {
    const field = fieldOf(error);
    errors[field] ??= error.message ?? '';
  }
  for (const [field, message] of Object.entries(crossField?.(data) ?? {})) if (message) errors[field] ??= message;
  return errors;
}

/**
 * The same form without some of its fields (a password only when adding a user, say). It is validated by the whole
 * form's precompiled validator, less what it says about the fields left out (absent from the data, so only their
 * being required): no validator is compiled in the browser for the variant.
 */
export function withoutFields(form: EntryFormDefinition, names: readonly string[]): EntryFormDefinition {
  const properties = Object.fromEntries(Object.entries(form.schema.properties).filter(([k]) => !names.includes(k)));
  const required = ((form.schema.required as string[] | undefined) ?? []).filter((k) => !names.includes(k));
  const order = form.uiSchema['ui:order'] as string[] | undefined;
  const kept = (error: RJSFValidationError) => !names.includes(fieldOf(error));
  const validator = Object.create(form.validator) as FormValidator;
  validator.validateFormData = (formData, schema, customValidate, transformErrors, ui) =>
    form.validator.validateFormData(
      formData,
      schema,
      customValidate,
      (errors, uiSchema) => (transformErrors ? transformErrors(errors.filter(kept), uiSchema) : errors.filter(kept)),
      ui,
    );
  return {
    ...form,
    validator,
    schema: { ...form.schema, properties, required },
    uiSchema: { ...form.uiSchema, ...(order ? { 'ui:order': order.filter((k) => !names.includes(k)) } : {}) },
  };
}

export function EntryForm<T extends FormData>({
  form,
  idPrefix,
  formData,
  onChange,
  onSubmit,
  formContext,
  uiSchema,
  crossFieldErrors,
  disabled,
  readonly,
  children,
}: {
  form: EntryFormDefinition;
  /** The fields' ids are `<idPrefix>_<field>`; unique on the page. */
  idPrefix: string;
  formData: T;
  onChange: (data: T) => void;
  /** Called only with data that has no problem. */
  onSubmit: (data: T) => void;
  /** What a widget needs from the page (the national-code inquiry, say). */
  formContext?: object;
  /** Merged over the form's UI schema, field by field (`{ isStaff: { 'ui:disabled': true } }`). */
  uiSchema?: Record<string, Record<string, unknown>>;
  crossFieldErrors?: CrossFieldRule;
  disabled?: boolean;
  readonly?: boolean;
  /** The form's buttons (a `type="submit"` one submits). */
  children?: ReactNode;
}) {
  const formRef = useRef<Form>(null);
  const visited = useRef(new Set<string>());
  const submitted = useRef(false);
  const field = useCallback((id: string) => id.slice(idPrefix.length + 1), [idPrefix]);
  const [shownData, report] = useLatestReport(formData);

  const translate = useMemo(() => persianErrors(form.schema), [form.schema]);
  const transformErrors = useCallback(
    (errors: RJSFValidationError[]) =>
      translate(errors).filter((e) => e.name !== 'required' || submitted.current || visited.current.has(fieldOf(e))),
    [translate],
  );
  const customValidate = useCallback(
    (data: T | undefined, errors: FormValidation<T>) => {
      const values: FormData = data ?? {};
      for (const [name, message] of Object.entries(crossFieldErrors?.(values) ?? {})) {
        const target = (errors as Record<string, { addError?: (m: string) => void } | undefined>)[name];
        const shown = submitted.current || visited.current.has(name) || !isEmpty(values[name]);
        if (message && shown) target?.addError?.(message);
      }
      return errors;
    },
    [crossFieldErrors],
  );
  const mergedUi = useMemo(() => {
    const merged: Record<string, unknown> = { ...form.uiSchema, 'ui:submitButtonOptions': { norender: true } };
    for (const [name, extra] of Object.entries(uiSchema ?? {}))
      merged[name] = { ...(form.uiSchema[name] as object | undefined), ...extra };
    return merged as UiSchema;
  }, [form.uiSchema, uiSchema]);

  // After a submit was tried, every change shows the problems of the data as it now is. rjsf may skip the live
  // validation of a change that arrives in a busy moment, or redo it on data a re-render handed back, leaving a fixed
  // field's message on screen; validating once the change has committed (rjsf's update included) is the last word.
  useEffect(() => {
    if (submitted.current) formRef.current?.validateForm();
  }, [shownData]);

  // A submit shows every problem: the flag is set before rjsf validates the submit (capture runs first).
  return (
    <div
      onSubmitCapture={() => {
        submitted.current = true;
      }}
    >
      <RadixForm
        ref={formRef}
        schema={drawnSchema(form.schema as never) as never}
        uiSchema={mergedUi}
        formData={shownData}
        formContext={formContext}
        idPrefix={idPrefix}
        validator={form.validator}
        translateString={persianTranslator}
        showErrorList={false}
        noHtml5Validate
        transformErrors={transformErrors}
        customValidate={customValidate as never}
        liveValidate="onChange"
        disabled={disabled}
        readonly={readonly}
        onFocus={(id) => visited.current.delete(field(id))}
        onBlur={(id) => {
          visited.current.add(field(id));
          formRef.current?.validateForm();
        }}
        onChange={(e) => onChange(report((e.formData ?? {}) as T))}
        // Problems are on the fields already; without a handler rjsf would also log them.
        onError={() => undefined}
        onSubmit={(e) => {
          const data = (e.formData ?? {}) as T;
          if (Object.keys(entryFormErrors(form, data, crossFieldErrors)).length === 0) onSubmit(data);
        }}
      >
        {children}
      </RadixForm>
    </div>
  );
}
