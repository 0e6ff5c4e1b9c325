// The fixtures built as their frameworks' development tools build them: React with
// NODE_ENV=development (React 18's from JSX, with the JSX development transform), Vue's
// single-file components compiled as its build plugins compile them for development
// (recording the component's file), Svelte's with `dev: true` (its elements then record where
// their markup is). What a developer's browser runs while they work, and what the widget reads
// a pinned element's source from.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { compile } from 'svelte/compiler';
import { compileScript, parse } from 'vue/compiler-sfc';

/** Files are named from the repository's root, as a dev server names them from the project's. */
const root = fileURLToPath(new URL('../../..', import.meta.url));

const vueComponents: Plugin = {
  name: 'vue-sfc',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.vue$/ }, async (args) => {
      const file = path.relative(root, args.path);
      const { descriptor, errors } = parse(await fs.readFile(args.path, 'utf8'), { filename: file });
      if (errors.length) throw errors[0];
      const script = compileScript(descriptor, { id: 'fixture', inlineTemplate: true });
      const contents = `${script.content.replace('export default', 'const component =')}
component.__file = ${JSON.stringify(file)};
export default component;`;
      return { contents, loader: 'ts', resolveDir: path.dirname(args.path) };
    });
  },
};

const svelteComponents: Plugin = {
  name: 'svelte',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.svelte$/ }, async (args) => {
      const source = await fs.readFile(args.path, 'utf8');
      const { js } = compile(source, { filename: path.relative(root, args.path), dev: true, generate: 'client' });
      return { contents: js.code, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * React 18 in place of the workspace's React 19 (react-dom-18 imports `react` too), its JSX
 * compiled as its development tools compile it: each element then carries the file (from the
 * root, as `fileName`), line and column it is written at.
 */
export const react18: BuildOptions = {
  alias: { react: 'react-18', 'react-dom': 'react-dom-18' },
  jsx: 'automatic',
  jsxDev: true,
  jsxImportSource: 'react-18',
  absWorkingDir: root,
};

/** The fixture `file` (of ./fixtures) bundled for development: not minified, the frameworks' checks on. */
export async function devBundle(file: string, options: BuildOptions = {}): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    conditions: ['development', 'browser'],
    define: {
      'process.env.NODE_ENV': '"development"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    plugins: [vueComponents, svelteComponents],
    logLevel: 'error',
    ...options,
  });
  return result.outputFiles?.[0]?.text ?? '';
}
