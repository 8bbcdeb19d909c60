// Markdown written to attack the page it is shown on: every script vector the public pipeline
// (src/server/content/render-markdown.ts) must neutralise. The public Markdown tests and the
// studio's tests (saved, previewed, published, in RSS) use the same text.

export const HOSTILE_BODY = `
# Title inside the body

Some **bold** text and [a fine link](https://ieee.org/standards) and [a relative one](/contact).

<script>alert("xss")</script>

<img src=x onerror="alert(1)">

<a href="javascript:alert(2)">click</a>

[markdown js link](javascript:alert(3))

[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCg0KTwvc2NyaXB0Pg==)

<iframe src="https://evil.example"></iframe>

<p onclick="alert(5)" style="color:red">paragraph with handler</p>

<svg onload="alert(6)"><circle r="1"/></svg>
`;
