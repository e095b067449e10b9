/**
 * A desk's form fields as the customer sees them: the desk's effective form (its form type with the desk's `comps`)
 * drawn by the Radix theme, validated as the server validates it, with Persian messages. A field shows what is wrong
 * with its value as it is typed, and that it is empty once left. The desk page wraps it with the price and submit;
 * the staff catalogue page draws it as the preview of a desk or form type being edited.
 */
import type Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import { Flex, Spinner, Text } from '@radix-ui/themes';
import type { ObjectFieldTemplateProps, RJSFValidationError } from '@rjsf/utils';
import {
  memo,
  type MutableRefObject,
  type Ref,
  startTransition,
  useCallback,
  useDeferredValue,
  useMemo,
  useRef,
} from 'react';
import type { Desk } from '../../../generated/schemas/desk';
import type { FormType } from '../../../generated/schemas/form';
import { effectiveForm } from '../../../shared/catalogue';
import { ObjectFieldTemplate, RadixForm } from './theme';
import { persianTranslator } from './translator';
import { drawnSchema, errorPath, persianErrors, useLoadedValidator } from './validator';
import { useLatestReport } from './useLatestReport';

export type DeskFormData = Record<string, unknown>;

/** The field an error belongs to, named as its rjsf id without `root_` (`attendees_0_name`). */
export const errorField = (error: RJSFValidationError): string => {
  const missing = error.name === 'required' ? (error.params as { missingProperty?: string }).missingProperty : '';
  return [...errorPath(error), ...(missing ? [missing] : [])].join('_');
};

type DrawnDeskForm = ReturnType<typeof effectiveForm> & { transformErrors: ReturnType<typeof persianErrors> };
const deskForms = new WeakMap<Desk, WeakMap<FormType, DrawnDeskForm>>();

/**
 * A desk's effective form and its Persian error translator, once per desk and form objects (the catalogue's, which
 * stay the same while the catalogue does): the desk page and its fields both ask for it in the same render, and each
 * used to compute its own (two copies of the schema, two validators for them).
 */
function deskFormOf(desk: Desk, form: FormType): DrawnDeskForm {
  let forDesk = deskForms.get(desk);
  if (!forDesk) deskForms.set(desk, (forDesk = new WeakMap()));
  let found = forDesk.get(form);
  if (!found) {
    const effective = effectiveForm(desk, form);
    forDesk.set(form, (found = { ...effective, transformErrors: persianErrors(effective.schema) }));
  }
  return found;
}

/**
 * The theme's object template for a form in steps: at the form's root, the fields of other steps are hidden
 * (`formContext.stepFields`); they keep their values, conditions and validation (decision 044).
 */
function StepObjectTemplate(props: ObjectFieldTemplateProps) {
  const step = (props.registry.formContext as { stepFields?: readonly string[] } | undefined)?.stepFields;
  if (!step || props.fieldPathId.path.length > 0) return <ObjectFieldTemplate {...props} />;
  const properties = props.properties.map((p) => (step.includes(p.name) ? p : { ...p, hidden: true }));
  return <ObjectFieldTemplate {...props} properties={properties} />;
}
const STEP_TEMPLATES = { ObjectFieldTemplate: StepObjectTemplate };

/**
 * The effective form of a desk, its validator and its Persian error translator, computed once per desk and form.
 * The validator is undefined while its precompiled code loads (validator.ts).
 */
export function useDeskForm(desk: Desk, form: FormType) {
  const drawn = deskFormOf(desk, form);
  const validator = useLoadedValidator(drawn.schema);
  return useMemo(() => ({ ...drawn, validator }), [drawn, validator]);
}

/**
 * Memoized: the desk page re-renders for what is beside the form (its price, the quote's countdown, a draft saved),
 * and every render of rjsf's form re-renders each of its fields; only the form's own props redraw it.
 */
export const DeskFields = memo(function DeskFields({
  desk,
  form,
  formData,
  onChange,
  onSubmit,
  formRef,
  formContext,
  preparing = false,
  stepFields,
  visited: visitedFrom,
}: {
  desk: Desk;
  form: FormType;
  formData: DeskFormData;
  onChange: (data: DeskFormData) => void;
  onSubmit?: (event: IChangeEvent<DeskFormData>) => void;
  formRef?: Ref<Form>;
  /** What the desk page gives its widgets beside `isCashService` (signed in, a way to fill a field). */
  formContext?: Record<string, unknown>;
  /** The page still gathers the data to draw the form with (the customer's last request at this desk). */
  preparing?: boolean;
  /** A form in steps: only these top-level fields are drawn; the others keep their values, hidden (FormSteps.tsx). */
  stepFields?: readonly string[] | undefined;
  /** The fields left or asked for (their empty-required errors show), when the page reveals a step's errors. */
  visited?: MutableRefObject<Set<string>>;
}) {
  const { schema, uiSchema, staticValues, transformErrors, validator } = useDeskForm(desk, form);
  const ownRef = useRef<Form>(null);
  const ownVisited = useRef(new Set<string>());
  const visited = visitedFrom ?? ownVisited;
  const [shownData, report] = useLatestReport(formData);
  const visibleErrors = useCallback(
    (errors: RJSFValidationError[]) =>
      transformErrors(errors).filter((e) => e.name !== 'required' || visited.current.has(errorField(e))),
    [transformErrors, visited],
  );
  const setRefs = useCallback(
    (instance: Form | null) => {
      ownRef.current = instance;
      if (typeof formRef === 'function') formRef(instance);
      else if (formRef) (formRef as { current: Form | null }).current = instance;
    },
    [formRef],
  );
  // The form's first drawing is the page's heaviest render (rjsf computes its state, every field renders): as a
  // deferred render React does it in slices and the page answers taps meanwhile, instead of one long task at the
  // moment the validator's code or the customer's last request arrives (decision 015: blocking time of the desk page).
  const drawable = useDeferredValue(Boolean(validator) && !preparing, false);
  const drawnUi = useMemo(() => ({ ...uiSchema, 'ui:submitButtonOptions': { norender: true } }), [uiSchema]);
  const context = useMemo(
    () => ({
      isCashService: desk.isCashService,
      currencies: desk.currencies,
      desk: desk.identifier,
      ...formContext,
      ...(stepFields && { stepFields }),
    }),
    [desk, formContext, stepFields],
  );
  if (!validator || preparing || !drawable) {
    return (
      <Flex align="center" gap="2" py="4" role="status">
        <Spinner />
        <Text size="2" color="gray">
          در حال آماده‌سازی فرم…
        </Text>
      </Flex>
    );
  }
  return (
    <RadixForm
      ref={setRefs}
      schema={drawnSchema(schema) as never}
      uiSchema={drawnUi as never}
      formData={shownData}
      // What the desk decides for its widgets (cash service, the currencies it is paid in) comes from the desk here,
      // so the desk page and the catalogue's preview of it offer the same choices; the file fields upload for this desk.
      formContext={context}
      {...(stepFields && { templates: STEP_TEMPLATES })}
      validator={validator}
      translateString={persianTranslator}
      showErrorList={false}
      noHtml5Validate
      transformErrors={visibleErrors}
      liveValidate="onChange"
      onBlur={(id) => {
        visited.current.add(id.replace(/^root_/, ''));
        ownRef.current?.validateForm();
      }}
      // rjsf has drawn the change already (its own state); the page takes it in a transition, in slices. rjsf reports
      // from its commit, where an update is urgent: the page's whole render, rjsf's fields included, was one long task
      // each time a select chose the desk's only currency for the customer or a key was typed. A render of the page
      // with an earlier report is harmless (useLatestReport).
      onChange={(e) => {
        const data = report({ ...(e.formData ?? {}), ...staticValues });
        startTransition(() => onChange(data));
      }}
      onSubmit={(e) => onSubmit?.(e)}
      // Errors are shown under their fields and beside submit; without this rjsf logs each validation to the console.
      onError={() => undefined}
    />
  );
});
