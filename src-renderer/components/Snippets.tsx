import { useState } from 'react';
import { CopyButton } from './CopyButton.tsx';

/** Ready-to-paste calls of the local server: curl, openai for JavaScript and for Python. */
export function Snippets({ url }: { url: string }) {
  const snippets = {
    curl: `curl ${url}/v1/chat/completions \\
  -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "svc/audit-1", "messages": [{"role": "user", "content": "Text to audit."}]}'`,
    'openai (JavaScript)': `import OpenAI from 'openai';

const client = new OpenAI({ baseURL: '${url}/v1', apiKey: process.env.SVC_API_KEY });
const result = await client.chat.completions.create({
  model: 'svc/refine-1',
  messages: [{ role: 'user', content: JSON.stringify([{ task_type: 'text', text: 'Caf\\u00c3\\u00a9 menu' }]) }],
});
console.log(JSON.parse(result.choices[0].message.content));`,
    'openai (Python)': `import json, os
from openai import OpenAI

client = OpenAI(base_url="${url}/v1", api_key=os.environ["SVC_API_KEY"])
result = client.chat.completions.create(
    model="svc/audit-1",
    messages=[{"role": "user", "content": json.dumps({"data": [{"task_type": "text", "text": "Hello"}]})}],
)
print(json.loads(result.choices[0].message.content))`,
  };
  const names = Object.keys(snippets) as (keyof typeof snippets)[];
  const [tab, setTab] = useState<keyof typeof snippets>('curl');
  return (
    <div className="snippets">
      <div className="tabs" role="tablist">
        {names.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={`tab${tab === name ? ' active' : ''}`}
            onClick={() => setTab(name)}
          >
            {name}
          </button>
        ))}
        <span className="spacer" />
        <CopyButton text={snippets[tab]} />
      </div>
      <pre className="code" data-testid="snippet">
        {snippets[tab]}
      </pre>
    </div>
  );
}
