import { PlaceholderError, type ValidateFlowOptions, findCycles, resolvePlaceholders, topologicalLevels, validateFlow } from './flow-dag';
import { FLOW_NODE_KINDS } from './flow-nodes';

/** validateFlow with the registry of node types, as the API calls it. */
const validate = (def: unknown, options: Omit<ValidateFlowOptions, 'kinds'> = {}) => validateFlow(def, { kinds: FLOW_NODE_KINDS, ...options });

const scrape = (id: string, needs: string[] = [], config: Record<string, unknown> = { url: 'https://example.com/' }) => ({ id, type: 'scrape', config, needs });

/** The 4-node flow of issue 5: scrape → foreach over extracted links → delay → webhook. */
const fourNodes = {
  name: 'links',
  nodes: [
    scrape('list', [], { url: 'https://example.com/links', selectors: [{ selector: 'a', attribute: 'href', all: true }] }),
    { id: 'pages', type: 'foreach', needs: ['list'], config: { from: '{{ nodes.list.data.0.results }}', request: { url: 'https://example.com{{ item.text }}', selectors: ['h1'] }, concurrency: 4 } },
    { id: 'wait', type: 'delay', needs: ['pages'], config: { ms: 1000 } },
    { id: 'notify', type: 'webhook', needs: ['wait'], config: { url: 'https://hooks.example.com/done' } },
  ],
};

describe('validateFlow', () => {
  it('accepts a valid flow', () => {
    expect(validate(fourNodes)).toEqual([]);
  });

  it('lists every problem at once', () => {
    const problems = validate({
      name: '',
      nodes: [
        scrape('a', ['ghost']),
        scrape('a'),
        { id: 'b', type: 'teleport', config: {}, needs: [] },
        { id: 'c', type: 'delay', config: { ms: 0 }, needs: [] },
        { id: 'd', type: 'webhook', config: { url: 'ftp://x' }, needs: [] },
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'name is required',
        'duplicate node id "a" (nodes 0, 1)',
        'node "a" needs unknown node "ghost"',
        'node "b" has unknown type "teleport" (expected one of scrape, foreach, delay, webhook, input)',
        'node "c" config.ms must be an integer from 1 to 86400000',
        'node "d" config.url must be an absolute http(s) URL',
      ]),
    );
    expect(problems).toHaveLength(6);
  });

  it('names each cycle, self-loops included', () => {
    const problems = validate({
      name: 'loops',
      nodes: [scrape('a', ['c']), scrape('b', ['a']), scrape('c', ['b']), scrape('d', ['d']), scrape('e', ['a'])],
    });
    expect(problems).toEqual(['cycle: a → c → b → a', 'cycle: d → d']);
  });

  it('refuses placeholders to nodes that are not ancestors, unknown nodes and bad forms', () => {
    const problems = validate({
      name: 'refs',
      nodes: [
        scrape('a'),
        scrape('b'),
        scrape('c', ['a'], { url: 'https://x.test/{{ nodes.a.status }}', headers: { x: '{{ nodes.b.status }}', y: '{{ nodes.zz.x }}', z: '{{ env.SECRET }}' } }),
        scrape('d', ['c'], { url: '{{ nodes.a.final_url }}' }),
        scrape('e', [], { url: '{{ item.url }}' }),
      ],
    });
    expect(problems).toEqual([
      'node "c" config.headers.x: {{ nodes.b.status }} refers to node "b", which is not an ancestor through needs',
      'node "c" config.headers.y: {{ nodes.zz.x }} refers to unknown node "zz"',
      'node "c" config.headers.z: {{ env.SECRET }} is not a valid placeholder (use {{ nodes.<id>.<path> }})',
      'node "e" config.url: {{ item.url }}: {{ item }} is only available in a foreach node\'s request',
    ]);
  });

  it('checks each node type\'s config', () => {
    const problems = validate({
      name: 'configs',
      nodes: [
        scrape('s', [], { mode: 'video', async: true, extra: 1 }),
        { id: 'f', type: 'foreach', needs: ['s'], config: { from: 'nodes.s.data', request: { url: 'https://x.test/{{ item }}' }, concurrency: 17 } },
        { id: 'g', type: 'foreach', needs: ['s'], config: { from: '{{ nodes.s.data }}', request: 'https://x.test' } },
        { id: 'w', type: 'delay', needs: [], config: { ms: 86_400_001, unit: 's' } },
        { id: 'h', type: 'webhook', needs: [], config: {} },
        { id: 'n', type: 'delay', needs: [], config: null },
      ],
    });
    expect(problems).toEqual([
      'node "s" config.async is not allowed in a flow (nodes always run to completion)',
      'node "s" config.extra is not allowed',
      'node "s" config.url is required',
      'node "s" config.mode must be "http" or "browser"',
      'node "f" config.from must be a single placeholder {{ nodes.<id>.<path> }} naming a list',
      'node "f" config.concurrency must be an integer from 1 to 16',
      'node "g" config.request must be an object (a scrape request)',
      'node "w" config.ms must be an integer from 1 to 86400000',
      'node "w" config.unit is not allowed',
      'node "h" config.url is required (an http(s) URL)',
      'node "n" config must be an object',
    ]);
  });

  it('takes a scrape node\'s actions, cookies and session (issue 26), placeholders in an action\'s text included', () => {
    const login = scrape('login', [], { url: 'https://example.com/login', mode: 'browser', session: { name: 'site', save: true }, cookies: [{ name: 'lang', value: 'en' }], actions: [{ type: 'click', selector: '#code' }, { type: 'write', text: '{{ nodes.otp.value }}' }] });
    expect(validate({ name: 'login', nodes: [{ id: 'otp', type: 'input', config: { prompt: 'one-time code' } }, { ...login, needs: ['otp'] }] })).toEqual([]);
  });

  it('checks an input node\'s config: prompt required, timeout in seconds within its bounds, screenshot a boolean', () => {
    const input = (id: string, config: Record<string, unknown>, needs: string[] = []) => ({ id, type: 'input', config, needs });
    expect(
      validate({
        name: 'inputs',
        nodes: [
          scrape('login', [], { url: 'https://example.com/login', formats: ['screenshot'], mode: 'browser' }),
          input('ok', { prompt: 'The code for {{ nodes.login.status }}', timeout: 600, screenshot: true }, ['login']),
          input('defaults', { prompt: 'Anything?' }),
        ],
      }),
    ).toEqual([]);
    expect(
      validate({
        name: 'inputs',
        nodes: [
          input('a', {}),
          input('b', { prompt: '  ' }),
          input('c', { prompt: 'x'.repeat(2001) }),
          input('d', { prompt: 'p', timeout: 0 }),
          input('e', { prompt: 'p', timeout: 604801 }),
          input('f', { prompt: 'p', timeout: 1.5 }),
          input('g', { prompt: 'p', screenshot: 'yes' }),
          input('h', { prompt: 'p', value: 'preset' }),
        ],
      }),
    ).toEqual([
      'node "a" config.prompt is required',
      'node "b" config.prompt must be a non-empty string',
      'node "c" config.prompt must be at most 2000 characters',
      'node "d" config.timeout must be an integer number of seconds from 1 to 604800',
      'node "e" config.timeout must be an integer number of seconds from 1 to 604800',
      'node "f" config.timeout must be an integer number of seconds from 1 to 604800',
      'node "g" config.screenshot must be true or false',
      'node "h" config.value is not allowed',
    ]);
  });

  it('runs the full scrape check the caller plugs in, with placeholders replaced by samples', () => {
    const seen: unknown[] = [];
    const problems = validate(fourNodes, {
      checkScrapeRequest: (request) => {
        seen.push(request);
        return request.selectors ? [] : ['selectors is required'];
      },
    });
    expect(problems).toEqual([]);
    expect(seen).toEqual([fourNodes.nodes[0]!.config, { url: 'https://example.comsample', selectors: ['h1'] }]);
    expect(validate({ name: 'x', nodes: [scrape('a')] }, { checkScrapeRequest: () => ['selectors is required'] })).toEqual(['node "a" config: selectors is required']);
  });

  it('refuses malformed shapes', () => {
    expect(validate(null)).toEqual(['body must be an object { name, nodes }']);
    expect(validate({ name: 'x', nodes: [] })).toEqual(['nodes must be a non-empty array']);
    expect(validate({ name: 'x', nodes: [{ id: 'a.b', type: 'delay', config: { ms: 1 } }, { id: 'c', type: 'delay', config: { ms: 1 }, needs: 'a' }, 7] })).toEqual([
      'nodes.0.id must be 1-64 characters of letters, digits, _ or -',
      'nodes.1.needs must be an array of node ids',
      'nodes.2 must be an object { id, type, config, needs }',
    ]);
  });
});

describe('findCycles / topologicalLevels', () => {
  it('groups nodes into parallel levels in definition order', () => {
    const nodes = [
      { id: 'd', needs: ['b', 'c'] },
      { id: 'a', needs: [] },
      { id: 'c', needs: ['a'] },
      { id: 'b', needs: ['a'] },
      { id: 'e', needs: [] },
    ];
    expect(topologicalLevels(nodes)).toEqual([['a', 'e'], ['c', 'b'], ['d']]);
    expect(findCycles(nodes)).toEqual([]);
  });

  it('throws on a cycle or an unknown need', () => {
    expect(() => topologicalLevels([{ id: 'a', needs: ['b'] }, { id: 'b', needs: ['a'] }])).toThrow('cycle: a → b → a');
    expect(() => topologicalLevels([{ id: 'a', needs: ['x'] }])).toThrow('node "a" needs unknown node "x"');
  });
});

describe('resolvePlaceholders', () => {
  const outputs = { list: { status: 200, data: [{ results: [{ text: '/page/1' }, { text: '/page/2' }] }], final_url: 'https://x.test/' } };

  it('keeps the JSON type of a whole-string placeholder and interpolates the rest', () => {
    const input = {
      items: '{{ nodes.list.data.0.results }}',
      status: ' {{nodes.list.status}} ',
      url: '{{ nodes.list.final_url }}page?s={{ nodes.list.status }}',
      json: 'first={{ nodes.list.data.0.results.0 }}',
      untouched: [1, true, null, 'plain'],
    };
    expect(resolvePlaceholders(input, outputs)).toEqual({
      items: [{ text: '/page/1' }, { text: '/page/2' }],
      status: 200,
      url: 'https://x.test/page?s=200',
      json: 'first={"text":"/page/1"}',
      untouched: [1, true, null, 'plain'],
    });
    expect(input.items).toBe('{{ nodes.list.data.0.results }}');
  });

  it('resolves {{ item }} inside a foreach', () => {
    expect(resolvePlaceholders({ url: 'https://x.test{{ item.text }}', whole: '{{ item }}' }, outputs, { item: { text: '/p' } })).toEqual({ url: 'https://x.test/p', whole: { text: '/p' } });
  });

  it('throws PlaceholderError for a missing value, never reading inherited properties', () => {
    expect(() => resolvePlaceholders('{{ nodes.list.nothing }}', outputs)).toThrow(PlaceholderError);
    expect(() => resolvePlaceholders('{{ nodes.other.x }}', outputs)).toThrow('node "other" has no output');
    expect(() => resolvePlaceholders('{{ nodes.list.constructor }}', outputs)).toThrow('nothing at "constructor"');
    expect(() => resolvePlaceholders('{{ item }}', outputs)).toThrow('no foreach item here');
  });
});
