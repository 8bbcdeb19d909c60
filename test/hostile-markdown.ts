// Markdown written to attack the page it is shown on: every script vector the public pipeline
// (src/server/content/render-markdown.ts) must neutralise. The public Markdown tests and the
// studio's tests (saved, previewed, published, in RSS) use the same text. Its images name the
// library key HOSTILE_PICTURE_KEY or no library picture at all: where the library does not hold
// that key, none of them may be drawn; where it does (render-markdown.test.ts), only the plain
// reference may become a picture, its words escaped, and nothing else.

/** The library key the hostile images name (no picture of the seeded site has it). */
export const HOSTILE_PICTURE_KEY = "0123456789abcdef";

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

![javascript image](javascript:alert(7))

![remote image](https://evil.example/tracker.png)

![protocol-relative image](//evil.example/tracker.png)

![data image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDgpIi8+)

![alt that closes its quote" onerror="alert(9)](/media/0123456789abcdef/original.jpg)

![src that closes its quote](</media/0123456789abcdef/original.jpg" onerror="alert(10)>)

![query on a library path](/media/0123456789abcdef/original.jpg?x=https://evil.example/)

![traversal](/media/0123456789abcdef/../../admin/original.jpg)

<img src="/media/0123456789abcdef/640.jpg" srcset="https://evil.example/x.jpg 640w" onerror="alert(11)">

<picture><source srcset="https://evil.example/x.avif 640w"><img src="/media/0123456789abcdef/640.jpg" alt=""></picture>
`;
