// A V8 heap snapshot (.heapsnapshot JSON, as CDP's HeapProfiler.takeHeapSnapshot streams it)
// summarised by kind, as DevTools' "Statistics" view does, and by constructor, as its "Summary"
// view does (self sizes; no retained sizes).
//
// Where this differs from DevTools (front_end/entrypoints/heap_snapshot_worker/HeapSnapshot.ts):
// DevTools counts as "System objects" what only the browser's own roots reach, measured from the
// page's roots (edges from the snapshot's root to its Window objects). Chromium 150's snapshots
// taken over CDP have none: the root's only edge goes to "(GC roots)", so that rule would count
// nothing. Here "System objects" are V8's own objects instead (object shapes, hidden nodes, and
// native nodes V8 names "system / …" that live on its heap), and the kinds are split by where
// the bytes live: the V8 heap (what Runtime.getHeapUsage counts, and the bench's budget) or
// beside it (script sources held as external strings, ArrayBuffer contents, DOM and Blink).

export interface HeapSnapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapKinds {
  /** Bytecode, machine code and what V8 keeps beside them (scope infos, feedback). */
  code: number;
  strings: number;
  /** `Array` objects and their elements when nothing else holds those. */
  jsArrays: number;
  /** V8's own objects: object shapes (maps), hidden nodes, "system / …" natives on its heap. */
  system: number;
  /** Everything else on the V8 heap: objects, closures, their property and element stores. */
  otherJs: number;
  /** The five above: comparable with Runtime.getHeapUsage().usedSize. */
  v8Heap: number;
  /** Off the V8 heap: sources of the page's scripts, held by V8 as external strings. */
  scriptSources: number;
  /** Off the V8 heap: ArrayBuffer contents ("system / JSArrayBufferData"). */
  typedArrays: number;
  /** Off the V8 heap: DOM, layout and style objects Blink reports. */
  blink: number;
  /** Every node's self size. */
  total: number;
}

export interface ClassSize {
  name: string;
  count: number;
  selfSize: number;
}

export interface HeapSummary {
  nodeCount: number;
  kinds: HeapKinds;
  /** By DevTools' class name, largest self size first. */
  classes: ClassSize[];
  /**
   * The code kind by the script it was compiled from (the file name, its hash as `*`):
   * each code node goes to the nearest function or function info that reaches it through code
   * nodes alone. Code no page script reaches (V8's builtins and its own tables) is "(no script)".
   */
  codeByScript: ScriptCode[];
}

export interface ScriptCode {
  script: string;
  size: number;
  /** Of `size`: V8's bytecode ("system / BytecodeArray"). */
  bytecode: number;
  /** Of `size`: machine code from V8's compilers ("system / InstructionStream", "system / Code"). */
  machineCode: number;
}

const EXTERNAL_STRING = 'system / ExternalStringData';
const ARRAY_BUFFER = 'system / JSArrayBufferData';
const SCRIPT = 'system / Script';
const FUNCTION_INFO = 'system / SharedFunctionInfo';
const NO_SCRIPT = '(no script)';

/** `http://host/assets/react-C5JmHf_c.js` → `react-*.js`; other names as they are. */
export function scriptLabel(name: string): string {
  const file = /^https?:\/\/[^/]+\/(?:.*\/)?([^/?#]+)/.exec(name)?.[1];
  if (!file) return name || '(unnamed script)';
  return file.replace(/-[A-Za-z0-9_-]{8}\.js$/, '-*.js');
}

export function summariseHeapSnapshot(heap: HeapSnapshot): HeapSummary {
  const { meta } = heap.snapshot;
  const nodeFields = meta.node_fields;
  const edgeFields = meta.edge_fields;
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const nodeFieldCount = nodeFields.length;
  const edgeFieldCount = edgeFields.length;
  const field = (fields: string[], name: string) => {
    const index = fields.indexOf(name);
    if (index < 0) throw new Error(`heap snapshot without the ${name} field`);
    return index;
  };
  const typeOffset = field(nodeFields, 'type');
  const nameOffset = field(nodeFields, 'name');
  const sizeOffset = field(nodeFields, 'self_size');
  const edgeCountOffset = field(nodeFields, 'edge_count');
  const edgeTypeOffset = field(edgeFields, 'type');
  const edgeNameOffset = field(edgeFields, 'name_or_index');
  const edgeToOffset = field(edgeFields, 'to_node');
  const nodeType = (name: string) => nodeTypes.indexOf(name);
  const HIDDEN = nodeType('hidden');
  const ARRAY = nodeType('array');
  const STRING = nodeType('string');
  const OBJECT = nodeType('object');
  const CODE = nodeType('code');
  const CLOSURE = nodeType('closure');
  const REGEXP = nodeType('regexp');
  const CONS_STRING = nodeType('concatenated string');
  const SLICED_STRING = nodeType('sliced string');
  const NATIVE = nodeType('native');
  const OBJECT_SHAPE = nodeType('object shape');
  const INTERNAL = edgeTypes.indexOf('internal');
  const PROPERTY = edgeTypes.indexOf('property');
  const ELEMENT = edgeTypes.indexOf('element');
  const HIDDEN_EDGE = edgeTypes.indexOf('hidden');

  const { nodes, edges, strings } = heap;
  const nodeCount = nodes.length / nodeFieldCount;
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (let ordinal = 0, edgeIndex = 0; ordinal < nodeCount; ordinal++) {
    firstEdge[ordinal] = edgeIndex;
    edgeIndex += (nodes[ordinal * nodeFieldCount + edgeCountOffset] as number) * edgeFieldCount;
  }
  firstEdge[nodeCount] = edges.length;
  const edgesFrom = (ordinal: number) => firstEdge[ordinal] as number;
  const typeOf = (ordinal: number) => nodes[ordinal * nodeFieldCount + typeOffset] as number;
  const nameOf = (ordinal: number) =>
    strings[nodes[ordinal * nodeFieldCount + nameOffset] as number] as string;
  const sizeOf = (ordinal: number) => nodes[ordinal * nodeFieldCount + sizeOffset] as number;
  const targetOf = (edgeIndex: number) =>
    (edges[edgeIndex + edgeToOffset] as number) / nodeFieldCount;
  const edgeNameOf = (edgeIndex: number) => {
    const type = edges[edgeIndex + edgeTypeOffset];
    const value = edges[edgeIndex + edgeNameOffset] as number;
    return type === ELEMENT || type === HIDDEN_EDGE ? String(value) : (strings[value] as string);
  };

  const retainers = new Uint32Array(nodeCount);
  for (let e = 0; e < edges.length; e += edgeFieldCount) {
    const target = targetOf(e);
    retainers[target] = (retainers[target] as number) + 1;
  }
  // DevTools' rule: an Array's elements store counts with it when the Array is its only holder.
  const arraySize = (ordinal: number) => {
    let size = sizeOf(ordinal);
    for (let e = edgesFrom(ordinal); e < edgesFrom(ordinal + 1); e += edgeFieldCount) {
      if (edges[e + edgeTypeOffset] !== INTERNAL || edgeNameOf(e) !== 'elements') continue;
      const elements = targetOf(e);
      if (retainers[elements] === 1) {
        size += sizeOf(elements);
        countedWithArray[elements] = 1;
      }
      break;
    }
    return size;
  };
  const countedWithArray = new Uint8Array(nodeCount);
  let jsArrays = 0;
  for (let ordinal = 0; ordinal < nodeCount; ordinal++) {
    if (typeOf(ordinal) === OBJECT && nameOf(ordinal) === 'Array') jsArrays += arraySize(ordinal);
  }

  const kinds: HeapKinds = {
    code: 0,
    strings: 0,
    jsArrays,
    system: 0,
    otherJs: 0,
    v8Heap: 0,
    scriptSources: 0,
    typedArrays: 0,
    blink: 0,
    total: 0,
  };
  const classes = new Map<string, ClassSize>();
  for (let ordinal = 0; ordinal < nodeCount; ordinal++) {
    const size = sizeOf(ordinal);
    const type = typeOf(ordinal);
    const name = nameOf(ordinal);
    kinds.total += size;
    if (size > 0) {
      const key = className(type, ordinal);
      const entry = classes.get(key);
      if (entry) {
        entry.count += 1;
        entry.selfSize += size;
      } else classes.set(key, { name: key, count: 1, selfSize: size });
    }
    if (type === NATIVE) {
      if (name === EXTERNAL_STRING) kinds.scriptSources += size;
      else if (name === ARRAY_BUFFER) kinds.typedArrays += size;
      else if (name.startsWith('system / ')) kinds.system += size;
      else kinds.blink += size;
    } else if (type === CODE) kinds.code += size;
    else if (type === STRING || type === CONS_STRING || type === SLICED_STRING) {
      kinds.strings += size;
    } else if (type === HIDDEN || type === OBJECT_SHAPE) kinds.system += size;
    else if (!(type === OBJECT && name === 'Array') && countedWithArray[ordinal] !== 1) {
      kinds.otherJs += size;
    }
  }
  kinds.v8Heap = kinds.code + kinds.strings + kinds.jsArrays + kinds.system + kinds.otherJs;

  // Code by script: every function info and function starts from its script, and each code
  // node goes to whichever reaches it first through code nodes (nearest first).
  const owner = new Int32Array(nodeCount).fill(-1);
  const labels: string[] = [];
  const labelIndex = new Map<string, number>();
  const labelOf = (label: string) => {
    let index = labelIndex.get(label);
    if (index === undefined) {
      index = labels.push(label) - 1;
      labelIndex.set(label, index);
    }
    return index;
  };
  const scriptOf = (functionInfo: number) => {
    for (let e = edgesFrom(functionInfo); e < edgesFrom(functionInfo + 1); e += edgeFieldCount) {
      if (edgeNameOf(e) !== 'script') continue;
      const script = nameOf(targetOf(e));
      if (script.startsWith(`${SCRIPT} / `)) return script.slice(SCRIPT.length + 3);
    }
    return null;
  };
  const queue: number[] = [];
  for (let ordinal = 0; ordinal < nodeCount; ordinal++) {
    const type = typeOf(ordinal);
    let functionInfo = -1;
    if (type === CODE && nameOf(ordinal).startsWith(FUNCTION_INFO)) functionInfo = ordinal;
    else if (type === CLOSURE) {
      for (let e = edgesFrom(ordinal); e < edgesFrom(ordinal + 1); e += edgeFieldCount) {
        if (edgeNameOf(e) === 'shared') functionInfo = targetOf(e);
      }
    }
    if (functionInfo < 0) continue;
    const script = scriptOf(functionInfo);
    if (script === null) continue;
    owner[ordinal] = labelOf(scriptLabel(script));
    queue.push(ordinal);
  }
  for (let head = 0; head < queue.length; head++) {
    const from = queue[head] as number;
    for (let e = edgesFrom(from); e < edgesFrom(from + 1); e += edgeFieldCount) {
      const target = targetOf(e);
      if (owner[target] !== -1 || typeOf(target) !== CODE) continue;
      const name = nameOf(target);
      if (name.startsWith(FUNCTION_INFO) || name.startsWith(SCRIPT)) continue;
      owner[target] = owner[from] as number;
      queue.push(target);
    }
  }
  const byScript = new Map<string, ScriptCode>();
  for (let ordinal = 0; ordinal < nodeCount; ordinal++) {
    if (typeOf(ordinal) !== CODE) continue;
    const index = owner[ordinal] as number;
    const script = index === -1 ? NO_SCRIPT : (labels[index] as string);
    let entry = byScript.get(script);
    if (!entry) {
      entry = { script, size: 0, bytecode: 0, machineCode: 0 };
      byScript.set(script, entry);
    }
    const size = sizeOf(ordinal);
    const name = nameOf(ordinal);
    entry.size += size;
    if (name === 'system / BytecodeArray') entry.bytecode += size;
    else if (name === 'system / InstructionStream' || name === 'system / Code') {
      entry.machineCode += size;
    }
  }

  function className(type: number, ordinal: number): string {
    switch (type) {
      case HIDDEN:
        return '(system)';
      case ARRAY:
        return '(array)';
      case CODE:
        return '(compiled code)';
      case CLOSURE:
        return 'Function';
      case REGEXP:
        return 'RegExp';
      case OBJECT_SHAPE:
        return '(object shape)';
      case STRING:
      case CONS_STRING:
      case SLICED_STRING:
        return '(string)';
      case OBJECT: {
        const name = nameOf(ordinal);
        return name === 'Object' ? plainObjectName(ordinal) : name;
      }
      default:
        return nameOf(ordinal);
    }
  }

  // DevTools names a plain object by its properties, "{id, status, …}": records of one shape
  // (a question, a query) add up under one name instead of disappearing into "Object".
  function plainObjectName(ordinal: number): string {
    const names: string[] = [];
    for (let e = edgesFrom(ordinal); e < edgesFrom(ordinal + 1); e += edgeFieldCount) {
      if (edges[e + edgeTypeOffset] !== PROPERTY) continue;
      const name = edgeNameOf(e);
      if (name !== '__proto__') names.push(name);
    }
    if (names.length === 0) return '{}';
    return names.length <= 4
      ? `{${names.join(', ')}}`
      : `{${names.slice(0, 3).join(', ')}, …, ${names.at(-1)}}`;
  }

  return {
    nodeCount,
    kinds,
    classes: [...classes.values()].sort((a, b) => b.selfSize - a.selfSize),
    codeByScript: [...byScript.values()].sort((a, b) => b.size - a.size),
  };
}
