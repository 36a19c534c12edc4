import { describe, expect, it } from 'vitest';
import type { FreedomId } from '../spec/latitude.ts';
import { start } from './server.ts';
import { DEFAULT_SETTINGS, isDefault, settingsFor } from './settings.ts';

// The behaviours the reference takes from the latitude catalogue, each off by default.
describe('reference settings', () => {
  it('are the recorded decisions when no entry is given', () => {
    expect(settingsFor()).toEqual({
      tenantIdentity: 'columns',
      signing: 'ES256',
      claims: 'flat',
      permissionsForm: 'object',
      agent: 'grammar',
      chatRequests: 'refuse',
      threadVersion: 'own',
      chatWindow: 'fixed',
      dashboardPage: 'in-place',
      scheduledReports: 'all',
      unloadableChart: 'empty-table',
      filterText: 'nothing',
      v1Component: 'dashboard-and-application-pages',
      drillSampled: 'refuse',
      tokenEnd: 'at-expires-at',
      tokenReads: 'issue-time',
      noRolePermissions: 'empty-role',
      recursiveSql: 'allowed',
      propertyBinding: 'typed',
      layoutEdits: 'lenient',
      tenantSplit: 'required',
      guestConnection: 'unknown',
      appendedCharts: 'copies',
      standInCharts: 'kept',
      apiKeyView: 'shared',
      userClone: 'beside',
      applicationsBeforeFinalize: 'none',
      chartSaving: 'unchecked',
      tenantUsers: 'own',
      noOrganizationCalls: 'under-application',
      v1ProjectUsers: 'refused',
      tenantPermissions: 'stored',
      embedSignIn: 'upsert',
      embedAbsent: 'create',
      saveFromChatRequired: 'chart-config',
    });
    expect(settingsFor([])).toEqual(DEFAULT_SETTINGS);
  });

  it('turn each behaviour on by its own entry, and all together', () => {
    expect(settingsFor(['tenant.identity-name'])).toEqual({
      ...DEFAULT_SETTINGS,
      tenantIdentity: 'columns-and-name',
    });
    expect(settingsFor(['tokens.hs256'])).toEqual({ ...DEFAULT_SETTINGS, signing: 'HS256' });
    expect(settingsFor(['claims.layout'])).toEqual({ ...DEFAULT_SETTINGS, claims: 'nested' });
    expect(settingsFor(['chat.second-agent'])).toEqual({ ...DEFAULT_SETTINGS, agent: 'second' });
    expect(settingsFor(['tokens.live-user'])).toEqual({ ...DEFAULT_SETTINGS, tokenReads: 'live' });
    expect(settingsFor(['properties.bound-as-text'])).toEqual({
      ...DEFAULT_SETTINGS,
      propertyBinding: 'text',
    });
    expect(settingsFor(['sql.no-recursion'])).toEqual({
      ...DEFAULT_SETTINGS,
      recursiveSql: 'refused',
    });
    expect(settingsFor(['permissions.no-role-nothing'])).toEqual({
      ...DEFAULT_SETTINGS,
      noRolePermissions: 'nothing',
    });
    // The reference reads both forms of a header key already (decision auth.header.format).
    expect(settingsFor(['auth.both-forms'])).toEqual(DEFAULT_SETTINGS);
    expect(
      settingsFor(['tenant.identity-name', 'tokens.hs256', 'auth.both-forms', 'claims.layout']),
    ).toEqual({
      ...DEFAULT_SETTINGS,
      tenantIdentity: 'columns-and-name',
      signing: 'HS256',
      claims: 'nested',
    });
    expect(settingsFor(['dashboards.v1-project-users'])).toEqual({
      ...DEFAULT_SETTINGS,
      v1ProjectUsers: 'taken',
    });
    expect(settingsFor(['chat.requests-answered'])).toEqual({
      ...DEFAULT_SETTINGS,
      chatRequests: 'answer',
    });
    expect(settingsFor(['chat.version-carried'])).toEqual({
      ...DEFAULT_SETTINGS,
      threadVersion: 'carried',
    });
    expect(settingsFor(['chat.sliding-window'])).toEqual({
      ...DEFAULT_SETTINGS,
      chatWindow: 'sliding',
    });
    expect(settingsFor(['hub.dashboard-redirect', 'hub.no-scheduled-reports'])).toEqual({
      ...DEFAULT_SETTINGS,
      dashboardPage: 'redirect',
      scheduledReports: 'none',
    });
    expect(settingsFor(['hub.unloadable-line-only'])).toEqual({
      ...DEFAULT_SETTINGS,
      unloadableChart: 'line',
      tokenReads: 'issue-time',
      noRolePermissions: 'empty-role',
      recursiveSql: 'allowed',
      propertyBinding: 'typed',
    });
    // The two permission forms set one setting: the later entry wins.
    expect(settingsFor(['claims.permissions-array']).permissionsForm).toBe('array');
    expect(
      settingsFor(['claims.permissions-array', 'claims.permissions-string']).permissionsForm,
    ).toBe('string');
  });

  it('pass over the entries that change only the form of answers', () => {
    expect(settingsFor(['status.created', 'sse.rechunked', 'tokens.hs256'])).toEqual({
      ...DEFAULT_SETTINGS,
      signing: 'HS256',
    });
  });

  it('refuse an id the catalogue does not hold, and start() refuses it too', async () => {
    const unknown = ['tokens.hs512'] as unknown as readonly FreedomId[];
    expect(() => settingsFor(unknown)).toThrow(/tokens\.hs512/);
    await expect(start({ seed: 1, latitude: unknown })).rejects.toThrow(/tokens\.hs512/);
  });

  it('announce another implementation once a behaviour departs from a decision', async () => {
    expect(isDefault(settingsFor(['auth.both-forms']))).toBe(true);
    expect(isDefault(settingsFor(['tokens.hs256']))).toBe(false);
    const implementationOf = async (latitude: readonly FreedomId[]) => {
      const running = await start({ seed: 1, hooks: true, latitude });
      try {
        const res = await fetch(`${running.hooksUrl}/capabilities`);
        return ((await res.json()) as { data: { implementation: string } }).data.implementation;
      } finally {
        await running.close();
      }
    };
    expect(await implementationOf([])).toBe('eac-reference');
    expect(await implementationOf(['tenant.identity-name'])).toBe('eac-reference-latitude');
  });

  it('announce agent-grammar only with the grammar agent', async () => {
    const hooksOf = async (latitude: readonly FreedomId[]) => {
      const running = await start({ seed: 1, hooks: true, latitude });
      try {
        const res = await fetch(`${running.hooksUrl}/capabilities`);
        return ((await res.json()) as { data: { hooks: string[] } }).data.hooks;
      } finally {
        await running.close();
      }
    };
    const grammar = await hooksOf([]);
    expect(grammar).toContain('agent-grammar');
    const second = await hooksOf(['chat.second-agent']);
    expect(second).not.toContain('agent-grammar');
    expect(second).toEqual(grammar.filter((h) => h !== 'agent-grammar'));
  });
});
