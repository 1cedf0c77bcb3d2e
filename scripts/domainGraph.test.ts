// The domain-cycle check of `npm run lint` (scripts/domainGraph.ts).
import { describe, expect, it } from 'vitest';
import { domainCycles, domainEdges } from './domainGraph.ts';

describe('domain graph', () => {
  it('collapses files to their domains, leaving out tests, root files and imports outside the tree', () => {
    const edges = domainEdges({
      'wall/service.ts': ['wall/repository.ts', 'access/policy.ts', 'media/service.ts', '../../test/support/db.ts'],
      'wall/wall.test.ts': ['notifications/service.ts'],
      'app.ts': ['wall/routes.ts'],
      'access/policy.ts': ['access/repository.ts'],
    });
    expect([...edges.keys()]).toEqual(['wall']);
    expect([...edges.get('wall')!.keys()]).toEqual(['access', 'media']);
    expect(edges.get('wall')!.get('access')).toBe('wall/service.ts → access/policy.ts');
  });

  it('finds domains importing each other, directly or around a loop, and nothing in a graph that reads top-down', () => {
    const loop = domainEdges({
      'identity/auth/presenter.ts': ['profiles/presenter.ts'],
      'profiles/tabs.ts': ['access/policy.ts'],
      'access/guard.ts': ['identity/plugin.ts'],
      'wall/service.ts': ['access/policy.ts'],
      'admin/topics.ts': ['wall/service.ts'],
      'wall/routes.ts': ['admin/guard.ts'],
    });
    expect(domainCycles(loop)).toEqual(
      expect.arrayContaining([
        ['access', 'identity', 'profiles'],
        ['admin', 'wall'],
      ]),
    );
    expect(domainCycles(loop)).toHaveLength(2);
    const tree = domainEdges({ 'wall/service.ts': ['access/policy.ts', 'media/service.ts'], 'admin/service.ts': ['wall/service.ts'], 'media/service.ts': [] });
    expect(domainCycles(tree)).toEqual([]);
  });
});
