/**
 * rjsf's remaining input widgets in the theme's text field: a web address, numbers (a spin box or a range),
 * time, date and time, colour, a hidden value. A date of any kind is typed or picked in the chosen calendar
 * (DateWidgets' JalaliDateWidget); a file is uploaded through the upload endpoint (ImageUploadWidget).
 */
import type { WidgetProps } from '@rjsf/utils';
import { TextWidget } from './TextWidget';

type Props = WidgetProps;

function TypedInput({ type, ...props }: Props & { type: string }) {
  const { BaseInputTemplate } = props.registry.templates;
  return <BaseInputTemplate {...props} type={type} />;
}

export const URLWidget = (props: Props) => (
  <TextWidget {...props} options={{ dir: 'ltr', inputType: 'url', ...props.options }} />
);
export const UpDownWidget = (props: Props) => <TypedInput {...props} type="number" />;
export const RangeWidget = (props: Props) => <TypedInput {...props} type="number" />;
export const TimeWidget = (props: Props) => <TypedInput {...props} type="time" />;
export const DateTimeWidget = (props: Props) => <TypedInput {...props} type="datetime-local" />;
export const ColorWidget = (props: Props) => <TypedInput {...props} type="color" />;
export const HiddenWidget = ({ id, value }: Props) => (
  <input type="hidden" id={id} value={value === undefined || value === null ? '' : String(value)} />
);
