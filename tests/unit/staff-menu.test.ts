/**
 * The server's access menu and the web's staff screens name the same things: every menu entry an action
 * opens has a screen in the drawer, every screen is opened by some action of the catalogue, and every action
 * the contract's x-access names that opens no screen is one a screen's own section or dialog uses.
 */
import { describe, expect, it } from 'vitest';
import actionCatalogue from '../../schemas/access/actions.json' with { type: 'json' };
import { loadContract } from '../../src/server/contract/contract';
import { MENU_BY_ACTION, menuFor } from '../../src/server/modules/access/menu';
import { canOpenStaffRoute, STAFF_PAGES, staffPagesOf } from '../../src/web/lib/staff-pages';

const catalogue = new Set(actionCatalogue.actions.map((a) => a.name));

describe('staff menu', () => {
  it('maps only catalogue actions, each to entries the web has a screen for', () => {
    for (const [action, entries] of Object.entries(MENU_BY_ACTION)) {
      expect(catalogue.has(action), action).toBe(true);
      for (const entry of entries)
        expect(
          STAFF_PAGES.some((p) => p.menu === entry),
          entry,
        ).toBe(true);
    }
  });

  it('opens every staff screen by some action', () => {
    const opened = new Set(Object.values(MENU_BY_ACTION).flat());
    for (const page of STAFF_PAGES) expect(opened.has(page.menu), page.menu).toBe(true);
  });

  it('gives a screen to every staff action of the contract, or names where it is used', () => {
    // Used inside a screen another action opens: profile reviews are dialogs of the task list.
    const insideOtherScreens = new Set(['approveProfileL1']);
    const staffActions = new Set(
      loadContract().operations.flatMap((op) => (op.access.kind === 'staff' ? [op.access.action] : [])),
    );
    for (const action of staffActions) {
      expect(menuFor([action]).menu.length > 0 || insideOtherScreens.has(action), action).toBe(true);
    }
  });

  it('opens the management home with any screen, and a screen only by its own entry', () => {
    const none = { menu: [] as string[] };
    expect(canOpenStaffRoute(none, 'management')).toBe(false);
    expect(canOpenStaffRoute(none, 'tasks')).toBe(false);
    const viewer = menuFor(['viewTasks']);
    expect(staffPagesOf(viewer).map((p) => p.title)).toEqual(['کارهای جاری']);
    expect(canOpenStaffRoute(viewer, 'management')).toBe(true);
    expect(canOpenStaffRoute(viewer, 'tasks')).toBe(true);
    expect(canOpenStaffRoute(viewer, 'requests')).toBe(false);
    // The system parameters live on the currency page.
    expect(canOpenStaffRoute(menuFor(['manageSystemParameters']), 'currencySettings')).toBe(true);
  });
});
