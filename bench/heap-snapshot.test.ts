import { describe, expect, it } from 'vitest';
import { type HeapSnapshot, scriptLabel, summariseHeapSnapshot } from './heap-snapshot';

// The meta of a Chromium snapshot, in its order (the summary reads names, never positions).
const NODE_TYPES = [
  'hidden',
  'array',
  'string',
  'object',
  'code',
  'closure',
  'regexp',
  'number',
  'native',
  'synthetic',
  'concatenated string',
  'sliced string',
  'symbol',
  'bigint',
  'object shape',
];
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];
const NODE_FIELDS = ['type', 'name', 'id', 'self_size', 'edge_count', 'detachedness'];

type Edge = [type: string, name: string, to: number];
interface Node {
  type: string;
  name: string;
  size: number;
  edges?: Edge[];
}

function snapshot(list: Node[]): HeapSnapshot {
  const strings: string[] = [];
  const string = (value: string) => {
    const index = strings.indexOf(value);
    return index >= 0 ? index : strings.push(value) - 1;
  };
  const nodes: number[] = [];
  const edges: number[] = [];
  list.forEach((node, ordinal) => {
    const own = node.edges ?? [];
    nodes.push(
      NODE_TYPES.indexOf(node.type),
      string(node.name),
      ordinal * 2 + 1,
      node.size,
      own.length,
      0,
    );
    for (const [type, name, to] of own) {
      edges.push(EDGE_TYPES.indexOf(type), string(name), to * NODE_FIELDS.length);
    }
  });
  return {
    snapshot: {
      meta: {
        node_fields: NODE_FIELDS,
        node_types: [NODE_TYPES],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        edge_types: [EDGE_TYPES],
      },
    },
    nodes,
    edges,
    strings,
  };
}

// A page in miniature: a global holding an array, a function from a hashed chunk, a record, and
// what V8 and Blink keep beside them.
const page = snapshot([
  /* 0 */ { type: 'synthetic', name: '(GC roots)', size: 0, edges: [['element', '1', 1]] },
  /* 1 */ {
    type: 'object',
    name: 'Window',
    size: 100,
    edges: [
      ['property', 'list', 2],
      ['property', 'render', 4],
      ['property', 'question', 7],
      ['property', 'pair', 16],
    ],
  },
  /* 2 */ { type: 'object', name: 'Array', size: 16, edges: [['internal', 'elements', 3]] },
  /* 3 */ { type: 'array', name: '', size: 40 },
  /* 4 */ { type: 'closure', name: 'render', size: 32, edges: [['internal', 'shared', 5]] },
  /* 5 */ {
    type: 'code',
    name: 'system / SharedFunctionInfo / render',
    size: 20,
    edges: [
      ['internal', 'script', 6],
      ['internal', 'trusted_function_data', 8],
    ],
  },
  /* 6 */ { type: 'code', name: 'system / Script / http://x/assets/react-C5JmHf_c.js', size: 80 },
  /* 7 */ {
    type: 'object',
    name: 'Object',
    size: 24,
    edges: [
      ['property', 'id', 9],
      ['property', 'status', 9],
      ['internal', 'elements', 15],
    ],
  },
  /* 8 */ { type: 'code', name: 'system / BytecodeArray', size: 200 },
  /* 9 */ { type: 'string', name: 'pending', size: 12 },
  /* 10 */ { type: 'native', name: 'system / ExternalStringData', size: 1000 },
  /* 11 */ { type: 'native', name: 'blink::HTMLDivElement', size: 300 },
  /* 12 */ { type: 'object shape', name: 'system / Map', size: 40 },
  /* 13 */ { type: 'native', name: 'system / PropertyCell', size: 8 },
  /* 14 */ { type: 'code', name: 'system / InstructionStream', size: 500 },
  // Shared by an Array and the record: not the Array's alone, so not counted with it.
  /* 15 */ { type: 'array', name: '', size: 30 },
  /* 16 */ { type: 'object', name: 'Array', size: 16, edges: [['internal', 'elements', 15]] },
]);

describe('summariseHeapSnapshot', () => {
  const summary = summariseHeapSnapshot(page);

  it('sorts every byte into one kind, the V8 heap apart from what lives beside it', () => {
    expect(summary.kinds).toEqual({
      code: 20 + 80 + 200 + 500,
      strings: 12,
      jsArrays: 16 + 40 + 16,
      system: 40 + 8,
      otherJs: 100 + 32 + 24 + 30,
      v8Heap: 800 + 12 + 72 + 48 + 186,
      scriptSources: 1000,
      typedArrays: 0,
      blink: 300,
      total: 2418,
    });
  });

  it('gives code to the script its function came from, the rest to no script', () => {
    expect(summary.codeByScript).toEqual([
      { script: '(no script)', size: 580, bytecode: 0, machineCode: 500 },
      { script: 'react-*.js', size: 220, bytecode: 200, machineCode: 0 },
    ]);
  });

  it('names constructors as DevTools does, plain objects by their properties', () => {
    const byName = Object.fromEntries(summary.classes.map((c) => [c.name, c]));
    expect(byName['{id, status}']).toEqual({ name: '{id, status}', count: 1, selfSize: 24 });
    expect(byName['(compiled code)']?.selfSize).toBe(800);
    expect(byName.Array).toEqual({ name: 'Array', count: 2, selfSize: 32 });
    expect(summary.classes[0]?.name).toBe('system / ExternalStringData');
  });
});

describe('scriptLabel', () => {
  it('drops the origin, the path and the build hash', () => {
    expect(scriptLabel('http://127.0.0.1:5196/assets/question-policy-wva5vO_E.js')).toBe(
      'question-policy-*.js',
    );
    expect(scriptLabel('http://127.0.0.1:5196/__floor/floor.js')).toBe('floor.js');
    expect(scriptLabel('extensions::SafeBuiltins')).toBe('extensions::SafeBuiltins');
  });
});
