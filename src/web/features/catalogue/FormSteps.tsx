/**
 * A desk's form in steps (`uiSchema["ui:steps"]`, decision 044): the list of steps with where the customer is (an ordered
 * list, the current step `aria-current="step"`), and what «بعدی» asks of a step: the errors of its own fields only,
 * the first of them in the step's order. The desk page (DeskForm) keeps the step; DeskFields draws only its fields
 * (the rest stay in the data, hidden). Loaded with the desk's form, never on the home page.
 */
import { Flex, Text } from '@radix-ui/themes';
import type { RJSFValidationError } from '@rjsf/utils';
import { toPersianDigits } from '../../../shared/digits';
import { errorPath } from '../../components/form-engine/validator';

export interface FormStep {
  title: string;
  fields: string[];
}

/** The form's steps, or null when it is one page. */
export function stepsOf(uiSchema: object | undefined): FormStep[] | null {
  const steps = (uiSchema as { 'ui:steps'?: unknown } | undefined)?.['ui:steps'];
  return Array.isArray(steps) && steps.length > 1 ? (steps as FormStep[]) : null;
}

/** The top-level field an error is about (a missing field at the top is named by its `missingProperty`). */
export function topFieldOf(error: RJSFValidationError): string {
  const path = errorPath(error);
  if (path.length > 0) return String(path[0]);
  return error.name === 'required' ? String((error.params as { missingProperty?: string }).missingProperty ?? '') : '';
}

/** The errors of the step's fields, in the step's order of fields. */
export function stepErrors(errors: readonly RJSFValidationError[], step: FormStep): RJSFValidationError[] {
  const order = (e: RJSFValidationError) => step.fields.indexOf(topFieldOf(e));
  return errors.filter((e) => order(e) >= 0).sort((a, b) => order(a) - order(b));
}

/** The first thing a person can type in or choose in a field (its wrapper is `data-field`, theme.tsx). */
export function focusField(root: HTMLElement | null, field: string): boolean {
  const box = root?.querySelector(`[data-field="${CSS.escape(field)}"]`);
  const target = box?.querySelector<HTMLElement>(
    'input:not([type="hidden"]):not([disabled]), select, textarea, button:not([disabled]), [tabindex="0"]',
  );
  if (!target || target.closest('[hidden]')) return false;
  target.focus();
  return document.activeElement === target;
}

/**
 * focusField once the field is drawn: rjsf applies a new step (or the errors just revealed) in an update of its own
 * after the page's, so the field may still be hidden for a frame or two.
 */
export function focusFieldSoon(root: { current: HTMLElement | null }, field: string, frames = 20): void {
  if (focusField(root.current, field) || frames <= 0) return;
  requestAnimationFrame(() => focusFieldSoon(root, field, frames - 1));
}

export function StepList({ steps, current }: { steps: FormStep[]; current: number }) {
  return (
    <nav aria-label="گام‌های فرم" data-testid="form-steps">
      <Text as="p" size="2" color="gray" mb="2">
        گام {toPersianDigits(current + 1)} از {toPersianDigits(steps.length)}: {steps[current]?.title}
      </Text>
      <Flex asChild gap="2" wrap="wrap" m="0" p="0" style={{ listStyle: 'none' }}>
        <ol>
          {steps.map((step, i) => (
            <li
              key={step.title}
              aria-current={i === current ? 'step' : undefined}
              style={{
                padding: 'var(--space-1) var(--space-2)',
                borderRadius: 'var(--radius-2)',
                border: `1px solid ${i === current ? 'var(--accent-9)' : 'var(--gray-a6)'}`,
                background: i === current ? 'var(--accent-3)' : undefined,
              }}
            >
              <Text size="2" weight={i === current ? 'bold' : 'regular'} color={i > current ? 'gray' : undefined}>
                {toPersianDigits(i + 1)}. {step.title}
              </Text>
            </li>
          ))}
        </ol>
      </Flex>
    </nav>
  );
}
