/**
 * What a desk's funnel may count (decision 046), read from the desk's effective form the same way by the page that
 * reports and the server that counts: the fields a visit may name as touched (every property the form can draw,
 * conditional ones too, by name and title) and how many steps the form has. Counts only: never a value.
 */

/** The most steps a form's funnel counts (a visit keeps the steps it reached as the bits of one integer). */
export const FUNNEL_MAX_STEPS = 30;

/** A visit not seen for this long and not submitted counts as left, with the last field it touched. */
export const FUNNEL_LEFT_AFTER_MINUTES = 30;

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The top-level fields of a form schema, name → title (the name when it has none): its `properties` and those its
 * conditions add (`allOf`/`anyOf`/`oneOf`, `if`/`then`/`else`, `dependencies`), never the inside of a field.
 */
export function funnelFieldsOf(schema: object): Map<string, string> {
  const fields = new Map<string, string>();
  const walk = (node: Node, depth: number) => {
    if (depth > 8) return;
    if (isNode(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) {
        const title = isNode(property) && typeof property.title === 'string' && property.title ? property.title : '';
        if (!fields.has(name) || (title && fields.get(name) === name)) fields.set(name, title || name);
      }
    }
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const list = node[key];
      if (Array.isArray(list)) for (const item of list) if (isNode(item)) walk(item, depth + 1);
    }
    for (const key of ['if', 'then', 'else']) if (isNode(node[key])) walk(node[key], depth + 1);
    if (isNode(node.dependencies)) {
      for (const dependency of Object.values(node.dependencies)) if (isNode(dependency)) walk(dependency, depth + 1);
    }
  };
  walk(schema as Node, 0);
  return fields;
}

/**
 * The steps a form declares in its UI schema (`ui:steps`: a list, each with a title and its fields), as their titles;
 * empty for a form drawn on one page. The wizard owns the shape; the funnel needs only how many and their titles.
 */
export function funnelStepsOf(uiSchema: object): string[] {
  const steps = (uiSchema as Node)['ui:steps'];
  if (!Array.isArray(steps)) return [];
  return steps
    .slice(0, FUNNEL_MAX_STEPS)
    .map((step, i) => (isNode(step) && typeof step.title === 'string' && step.title ? step.title : String(i + 1)));
}

/** The rjsf id of a drawn field (`root_amount`, `root_attendees_0_name`) as the top-level field it belongs to. */
export function funnelFieldOfId(id: string, fields: Iterable<string>): string | null {
  if (!id.startsWith('root_')) return null;
  const rest = id.slice('root_'.length);
  let found: string | null = null;
  for (const name of fields) {
    if ((rest === name || rest.startsWith(`${name}_`)) && name.length > (found?.length ?? -1)) found = name;
  }
  return found;
}
