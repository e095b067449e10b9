/** The task type catalogue (schemas/tasks/taskTypes.json): titles, colours and the action each needs. */
import catalogue from '../../../../schemas/tasks/taskTypes.json' with { type: 'json' };

export type TaskType = (typeof catalogue.taskTypes)[number];

export const taskTypes: readonly TaskType[] = catalogue.taskTypes;

export function taskTypeOf(identifier: string): TaskType {
  const type = taskTypes.find((t) => t.identifier === identifier);
  if (!type) throw new Error(`unknown task type ${identifier}`);
  return type;
}
