// Validates deploy/kubernetes/*.yaml against the Kubernetes API schemas shipped in the
// `kubernetes-models` package (offline: no cluster, no download), then checks what the example
// promises: probes on /readyz and /healthz, limits, non-root and read-only, the key from a Secret, and a
// Service that reaches oauth2-proxy only.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { ConfigMap, type IContainer, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const dir = path.dirname(fileURLToPath(import.meta.url));

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'v1 Service': Service,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
};

interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed manifest, checked by the schema first
  [key: string]: any;
}

function manifests(): Manifest[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((doc) => {
        if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.join('; ')}`);
        return { file, ...(doc.toJS() as Omit<Manifest, 'file'>) } as Manifest;
      }),
    );
}

function validate(manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion} ${manifest.kind}`];
  if (!Model)
    throw new Error(`${manifest.file}: no schema for ${manifest.apiVersion} ${manifest.kind}`);
  const { file: _file, ...data } = manifest;
  new Model(data as never).validate();
}

describe('deploy/kubernetes', () => {
  const all = manifests();
  const byKind = (kind: string) => all.find((m) => m.kind === kind) as Manifest;

  it.each(all.map((m) => [`${m.file}: ${m.kind}`, m] as const))(
    '%s is valid',
    (_name, manifest) => {
      expect(() => validate(manifest)).not.toThrow();
    },
  );

  it('the validator does refuse a broken manifest', () => {
    const broken = structuredClone(byKind('Deployment'));
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'eight thousand';
    expect(() => validate(broken)).toThrow(/containerPort/);
    const missing = structuredClone(byKind('Deployment'));
    delete missing.spec.selector;
    expect(() => validate(missing)).toThrow(/selector/);
  });

  it('the portal container is probed (ready on /readyz, alive on /healthz), limited, non-root and read-only, with the key from a Secret', () => {
    const deployment = byKind('Deployment');
    const pod = deployment.spec.template.spec;
    const portal = pod.containers.find((c: IContainer) => c.name === 'portal') as IContainer;
    const port = Number(portal.env?.find((e) => e.name === 'PORT')?.value);
    expect(portal.ports?.[0]?.containerPort).toBe(port);
    expect(portal.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(portal.livenessProbe?.httpGet?.path).toBe('/healthz');
    for (const probe of [portal.readinessProbe, portal.livenessProbe]) {
      expect(probe?.httpGet?.port).toBe(portal.ports?.[0]?.name);
    }
    expect(portal.resources?.limits).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    for (const container of pod.containers as IContainer[]) {
      expect(container.securityContext?.readOnlyRootFilesystem, container.name).toBe(true);
      expect(container.securityContext?.allowPrivilegeEscalation, container.name).toBe(false);
      expect(container.resources?.limits?.memory, container.name).toBeDefined();
    }
    const key = portal.env?.find((e) => e.name === 'REFLEXIO_API_KEY');
    expect(key?.value).toBeUndefined();
    expect(key?.valueFrom?.secretKeyRef?.name).toBe(byKind('Secret').metadata.name);
    expect(Object.keys(byKind('Secret').stringData)).toContain(key?.valueFrom?.secretKeyRef?.key);
  });

  it('the Service reaches oauth2-proxy, which forwards to the portal', () => {
    const pod = byKind('Deployment').spec.template.spec;
    const proxy = pod.containers.find((c: IContainer) => c.name === 'oauth2-proxy') as IContainer;
    const portal = pod.containers.find((c: IContainer) => c.name === 'portal') as IContainer;
    const service = byKind('Service');
    expect(service.spec.selector).toEqual(byKind('Deployment').spec.selector.matchLabels);
    const target = service.spec.ports[0].targetPort;
    expect(proxy.ports?.map((p) => p.name)).toContain(target);
    expect(proxy.args).toContain(
      `--upstream=http://127.0.0.1:${portal.ports?.[0]?.containerPort}/`,
    );
    const basePath = portal.env?.find((e) => e.name === 'BASE_PATH')?.value;
    expect(proxy.args).toContain(`--proxy-prefix=${basePath}oauth2`);
    const config = JSON.parse(byKind('ConfigMap').data['config.json']);
    expect(config.auth.mode).toBe('proxy');
  });
});
