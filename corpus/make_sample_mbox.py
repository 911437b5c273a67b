"""Writes the mbox of `corpus/sample.mbox` to standard output.

`python3 corpus/make_sample_mbox.py > corpus/sample.mbox`

A small mailing list written for the project (its quick start, README and tests), under
the project's licence: thirty messages of a fictional translators' list in a dozen scripts,
with threads, right-to-left text, flowed text, quotes, an HTML alternative, a patch
attachment, quoted-printable and base64 bodies, a Latin-1 message without a charset, and
links of every kind. Every domain is an example domain or a well-known public site.
"""
import base64, quopri, re, sys
from email.utils import formatdate
import datetime

LIST = "Atlas translators <atlas.lists.example.org>"
msgs = []

def msg(frm, date, subject, mid, body, reply=None, refs=None, ctype="text/plain; charset=utf-8",
        cte="8bit", extra=(), raw_body=None, to="atlas@lists.example.org", cc=None):
    h = [f"From: {frm}", f"To: {to}"]
    if cc: h.append(f"Cc: {cc}")
    h += [f"Subject: {subject}", f"Date: {date}", f"Message-ID: <{mid}@lists.example.org>"]
    if reply:
        h.append(f"In-Reply-To: <{reply}@lists.example.org>")
        r = refs if refs is not None else [reply]
        h.append("References: " + " ".join(f"<{x}@lists.example.org>" for x in r))
    h.append(f"List-Id: {LIST}")
    h.append("MIME-Version: 1.0")
    h += list(extra)
    if ctype: h.append(f"Content-Type: {ctype}")
    if cte: h.append(f"Content-Transfer-Encoding: {cte}")
    addr = frm.split("<")[-1].rstrip(">")
    dt = datetime.datetime.strptime(date[5:25], "%d %b %Y %H:%M:%S")
    env = f"From {addr} {dt.strftime('%a %b %e %H:%M:%S %Y')}"
    b = raw_body if raw_body is not None else body.encode("utf-8")
    if not b.endswith(b"\n"): b += b"\n"
    # mboxrd: a body line that starts with (">"*)"From " gets one more ">".
    b = re.sub(rb"(?m)^(>*From )", rb">\1", b)
    msgs.append(env.encode() + b"\n" + "\n".join(h).encode("utf-8") + b"\n\n" + b)

# Thread 1: release planning (English, flowed, quotes)
msg("Maria Keller <maria@atlas.example.org>", "Mon, 03 Mar 2025 09:12:00 +0000",
    "Release 2.4: what goes in", "r24-1", """Hello all,

The 2.4 release is planned for the end of March. The open items are on the
tracker at https://tracker.example.org/atlas/milestone/24?state=open and the
schedule is at https://wiki.example.org/Atlas/Releases#2.4.

Three things I would like in it:

1. The new glossary pages (see https://en.wikipedia.org/wiki/Glossary_(disambiguation)).
2. Right-to-left layout fixes for Arabic and Hebrew.
3. The style guide at www.example.com/atlas/style-guide, updated.

Reviewers, please write to release-team@atlas.example.org or reply here.

Maria
""")
msg("Tomás Ribeiro <tomas@atlas.example.org>", "Mon, 03 Mar 2025 11:40:00 +0000",
    "Re: Release 2.4: what goes in", "r24-2", """On Mon, 3 Mar 2025, Maria Keller wrote:
> The 2.4 release is planned for the end of March. The open items are on the
> tracker at https://tracker.example.org/atlas/milestone/24?state=open and the
> schedule is at https://wiki.example.org/Atlas/Releases#2.4.

The glossary pages are ready for review: https://review.example.org/c/atlas/+/4711.
I also fixed the Portuguese pages (pt.wikipedia.org/wiki/Tradução was linked wrong).

> 3. The style guide at www.example.com/atlas/style-guide, updated.

That one needs a week more.

Tomás
""", reply="r24-1")
msg("Amira Haddad <amira@atlas.example.org>", "Tue, 04 Mar 2025 08:05:00 +0000",
    "Re: Release 2.4: what goes in", "r24-3", """On Mon, 3 Mar 2025 at 11:40, Tomás Ribeiro wrote: 
> On Mon, 3 Mar 2025, Maria Keller wrote: 
>> 3. The style guide at www.example.com/atlas/style-guide, updated. 
> 
> That one needs a week more. 

The right-to-left fixes are in a branch at  
https://git.example.org/atlas/site/-/tree/rtl-fixes (the screenshots are in  
the merge request). The Arabic pages now keep links whole even where an  
Arabic comma follows them. 

Amira
""", reply="r24-2", refs=["r24-1", "r24-2"], ctype="text/plain; charset=utf-8; format=flowed")
msg("Maria Keller <maria@atlas.example.org>", "Tue, 04 Mar 2025 09:30:00 +0000",
    "Re: Release 2.4: what goes in", "r24-4", """Amira Haddad wrote:
> The right-to-left fixes are in a branch at
> https://git.example.org/atlas/site/-/tree/rtl-fixes (the screenshots are in
> the merge request).

Thanks, merged. Have you tried the preview at preview.example.net? It works.

Maria
""", reply="r24-3", refs=["r24-1", "r24-2", "r24-3"])

# Thread 2: Japanese
msg("佐藤 花子 <hanako@example.jp>", "Wed, 05 Mar 2025 02:15:00 +0000",
    "日本語の用語集について", "ja-1", """皆さん、こんにちは。

日本語の用語集の草案を https://wiki.example.org/Atlas/用語集 に置きました。
東京の例は https://ja.wikipedia.org/wiki/東京都 を参考にしています。
ご意見は（info@例え.jp）までお願いします。

佐藤
""")
msg("山田 太郎 <taro@example.jp>", "Wed, 05 Mar 2025 06:40:00 +0000",
    "Re: 日本語の用語集について", "ja-2", """佐藤さん

ありがとうございます。「リンク」の訳は https://example.jp/辞書/リンク をご覧ください。
詳細は www.example.jp/ガイド?章=3 にあります。

山田
""", reply="ja-1")

# Thread 3: Arabic (right to left)
msg("أمل منصور <amal@example.org>", "Thu, 06 Mar 2025 10:00:00 +0000",
    "ترجمة الصفحة الرئيسية", "ar-1", """مرحبا،

راجع موقع.وزارة-الاتصالات.مصر/صفحة، أو الصفحة https://ar.wikipedia.org/wiki/ترجمة للمصطلحات.
للأسئلة اكتبوا إلى amal@example.org.

أمل
""")
msg("يوسف قاسم <yousef@example.org>", "Thu, 06 Mar 2025 14:20:00 +0000",
    "Re: ترجمة الصفحة الرئيسية", "ar-2", """شكرا يا أمل.

النسخة الجديدة على https://example.org/ar/الرئيسية (مع الروابط الصحيحة).

يوسف
""", reply="ar-1")

# Hebrew
msg("נועה לוי <noa@example.org>", "Fri, 07 Mar 2025 08:45:00 +0000",
    "תרגום לעברית", "he-1", """שלום לכולם,

התרגום לעברית נמצא ב־https://he.wikipedia.org/wiki/תרגום ובאתר example.org/he/.
אפשר לכתוב לי: noa@example.org.

נועה
""")

# Russian thread
msg("Ольга Смирнова <olga@example.org>", "Mon, 10 Mar 2025 07:30:00 +0000",
    "Перевод глоссария", "ru-1", """Коллеги,

русская версия глоссария лежит на сайте пример.рф/глоссарий, а обсуждение —
на https://ru.wikipedia.org/wiki/Глоссарий. Пишите мне: ольга@пример.рф.

Ольга
""")
msg("Дмитрий Орлов <dmitry@example.org>", "Mon, 10 Mar 2025 09:05:00 +0000",
    "Re: Перевод глоссария", "ru-2", """Ольга, спасибо!

> русская версия глоссария лежит на сайте пример.рф/глоссарий

Посмотрел. Ссылка (https://пример.рф/глоссарий#термины) работает.

Дмитрий
""", reply="ru-1")

# Greek, quoted-printable
greek = """Καλημέρα,

Η ελληνική μετάφραση είναι στο https://el.wikipedia.org/wiki/Μετάφραση.
Γράψτε μου στο σωκράτης@example.gr για διορθώσεις.

Σωκράτης
"""
msg("Σωκράτης Παππάς <sokratis@example.gr>", "Tue, 11 Mar 2025 12:00:00 +0000",
    "Ελληνική μετάφραση", "el-1", None, cte="quoted-printable",
    raw_body=quopri.encodestring(greek.encode("utf-8")))

# German, Latin-1 without charset
german = """Hallo zusammen,

die deutsche Übersetzung liegt unter www.straße.de/ü?q=1! Bitte prüft die
Umlaute: Größe, Maße, Grüße. Fragen an übersetzung@example.de.

Viele Grüße aus München
Jürgen
"""
msg("Jürgen Weiß <juergen@example.de>", "Wed, 12 Mar 2025 15:10:00 +0000",
    "Deutsche Übersetzung", "de-1", None, ctype="text/plain", cte="8bit",
    raw_body=german.encode("latin-1"))

# Chinese, base64
chinese = """大家好，

中文版的术语表在 https://zh.wikipedia.org/wiki/术语表 ，请查看。
也可以访问 例子.中国/术语 或者发邮件到 术语@例子.中国。

王
"""
msg("王伟 <wang@example.cn>", "Thu, 13 Mar 2025 03:00:00 +0000",
    "中文术语表", "zh-1", None, cte="base64",
    raw_body=base64.encodebytes(chinese.encode("utf-8")))

# Korean
msg("김민지 <minji@example.kr>", "Thu, 13 Mar 2025 05:30:00 +0000",
    "한국어 번역", "ko-1", """안녕하세요,

한국어 번역은 https://ko.wikipedia.org/wiki/번역 과 example.kr/용어집 에 있습니다.
문의: minji@example.kr

민지
""")

# Hindi and Thai
msg("प्रिया शर्मा <priya@example.in>", "Fri, 14 Mar 2025 06:00:00 +0000",
    "हिंदी अनुवाद", "hi-1", """नमस्ते,

हिंदी शब्दावली https://hi.wikipedia.org/wiki/अनुवाद पर देखें। सुझाव priya@example.in पर भेजें।

प्रिया
""")
msg("สมชาย ใจดี <somchai@example.org>", "Fri, 14 Mar 2025 09:00:00 +0000",
    "การแปลภาษาไทย", "th-1", """สวัสดีครับ

คำแปลภาษาไทยอยู่ที่ https://th.wikipedia.org/wiki/การแปล ครับ

สมชาย
""")

# Patch series with attachments
patch1 = """From 1a2b3c Mon Sep 17 00:00:00 2001
From: Tomás Ribeiro <tomas@atlas.example.org>
Subject: [PATCH 1/2] docs: link the glossary from the index

---
 docs/index.md | 3 ++-
 1 file changed, 2 insertions(+), 1 deletion(-)

diff --git a/docs/index.md b/docs/index.md
index 4b1c2d3..5e6f7a8 100644
--- a/docs/index.md
+++ b/docs/index.md
@@ -10,7 +10,8 @@ Atlas is translated by volunteers.
 ## Where to start
 
-Read the old glossary at http://old.example.org/glossary.html.
+Read the glossary at https://wiki.example.org/Atlas/Glossary and the
+style guide at https://www.example.com/atlas/style-guide.
 
 Questions go to atlas@lists.example.org.
"""
msg("Tomás Ribeiro <tomas@atlas.example.org>", "Mon, 17 Mar 2025 10:00:00 +0000",
    "[PATCH 1/2] docs: link the glossary from the index", "p-1", None,
    ctype='multipart/mixed; boundary="=-=patch1=-="', cte=None,
    raw_body=("""This is a multi-part message in MIME format.

--=-=patch1=-=
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

The index still points at the old glossary. The patch is attached; it
applies on top of https://git.example.org/atlas/site/-/commits/main.

--=-=patch1=-=
Content-Type: text/x-patch; charset=utf-8; name="0001-docs-link-the-glossary.patch"
Content-Disposition: attachment; filename="0001-docs-link-the-glossary.patch"
Content-Transfer-Encoding: 8bit

""" + patch1 + """
--=-=patch1=-=--
""").encode("utf-8"))
msg("Tomás Ribeiro <tomas@atlas.example.org>", "Mon, 17 Mar 2025 10:01:00 +0000",
    "[PATCH 2/2] docs: the contributors' page in every language", "p-2", """The contributors' page was only in English. This adds the translated
pages and links them from https://wiki.example.org/Atlas/Contributors.

diff --git a/docs/contributors.md b/docs/contributors.md
--- a/docs/contributors.md
+++ b/docs/contributors.md
@@ -1,3 +1,5 @@
 # Contributors
+
+Translations: [ja](https://example.jp/atlas/貢献者), [ar](https://example.org/ar/المساهمون).
 
 Thanks to everyone at https://atlas.example.org/people.
""", reply="p-1")
msg("Maria Keller <maria@atlas.example.org>", "Tue, 18 Mar 2025 08:00:00 +0000",
    "Re: [PATCH 1/2] docs: link the glossary from the index", "p-3", """Tomás Ribeiro wrote:
> The index still points at the old glossary.

Applied both, thanks. The pages are live at https://atlas.example.org/docs/.

Maria
""", reply="p-1")

# HTML alternative
msg("Lucía Fernández <lucia@example.es>", "Wed, 19 Mar 2025 16:20:00 +0000",
    "Traducción al español", "es-1", None,
    ctype='multipart/alternative; boundary="alt-es"', cte=None,
    raw_body="""--alt-es
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

Hola a todos:

La traducción al español está en https://es.wikipedia.org/wiki/Traducción
y el glosario en www.ejemplo.es/glosario?idioma=es&página=2.

Saludos,
Lucía

--alt-es
Content-Type: text/html; charset=utf-8
Content-Transfer-Encoding: 8bit

<html><body><p>Hola a todos:</p>
<p>La traducción al español está en <a href="https://es.wikipedia.org/wiki/Traducción">https://es.wikipedia.org/wiki/Traducción</a>
y el glosario en www.ejemplo.es/glosario?idioma=es&amp;página=2.</p>
<p>Saludos,<br>Lucía</p></body></html>

--alt-es--
""".encode("utf-8"))

# French, quoted-printable, with a long quote
quote = "\n".join(f"> Ligne {i} du compte rendu : voir https://notes.example.fr/reunion/{i}." for i in range(1, 15))
french = f"""Bonjour,

Le compte rendu de la réunion est sur https://notes.example.fr/réunion-du-20-mars
(avec les décisions). Écrivez à élodie@example.fr pour le corriger.

Claire Dubois a écrit :
{quote}

D'accord avec tout cela.

Élodie
"""
msg("Élodie Martin <elodie@example.fr>", "Thu, 20 Mar 2025 17:45:00 +0000",
    "Compte rendu de la réunion", "fr-1", None,
    ctype="text/plain; charset=utf-8", cte="quoted-printable",
    raw_body=quopri.encodestring(french.encode("utf-8")))

# Links of every kind, and spoofing
msg("Security Team <security@atlas.example.org>", "Mon, 24 Mar 2025 12:00:00 +0000",
    "Links of every kind, and what not to click", "sec-1", """Hello,

For the record, the kinds of links the archive should find:

- a URL with a scheme, port and query: https://files.example.org:8443/get?id=42&lang=en
- a URL without a scheme: docs.example.com/guide/intro.html
- an address: help@atlas.example.org, and a mailto link: mailto:help@atlas.example.org?subject=Hi
- an IP address: http://192.0.2.10/status and an IPv6 one: http://[2001:db8::1]/
- another scheme: ftp://ftp.example.org/pub/atlas.tar.gz
- Punycode: https://xn--bcher-kva.de/b%C3%BCcher (that is bücher.de)
- a Wikipedia title in brackets: (see https://en.wikipedia.org/wiki/Paris_(France))

And two that are not what they seem: https://аррӏе.com/login looks like a
well-known brand but is written in Cyrillic, and https://example.com/%E2%80%AEfdp.exe
hides a right-to-left override. The archive shows both for what they are.

Security Team
""")
msg("Amira Haddad <amira@atlas.example.org>", "Tue, 25 Mar 2025 09:10:00 +0000",
    "Re: Links of every kind, and what not to click", "sec-2", """> And two that are not what they seem

Worth adding a mixed one: the Persian page example.ir/فارسی/صفحه‌اصلی (with a
zero-width non-joiner) and a name like ‏paypal.com with a right-to-left mark.

Amira
""", reply="sec-1")

# April messages
msg("Maria Keller <maria@atlas.example.org>", "Tue, 01 Apr 2025 09:00:00 +0000",
    "Atlas 2.4 released", "rel-1", """Hello all,

Atlas 2.4 is out: https://atlas.example.org/releases/2.4 (notes at
https://atlas.example.org/releases/2.4/notes#changes). Thanks to everyone who
translated, reviewed and tested. Next up is 2.5; the plan is at
https://wiki.example.org/Atlas/Releases#2.5.

Maria
""")
msg("Tomás Ribeiro <tomas@atlas.example.org>", "Tue, 01 Apr 2025 10:30:00 +0000",
    "Re: Atlas 2.4 released", "rel-2", """Congratulations! The download page (https://atlas.example.org/download) still
says 2.3, I will fix it today.
""", reply="rel-1")
msg("佐藤 花子 <hanako@example.jp>", "Wed, 02 Apr 2025 01:00:00 +0000",
    "Re: Atlas 2.4 released", "rel-3", """おめでとうございます！日本語版のお知らせは https://example.jp/お知らせ/2.4 に載せました。
""", reply="rel-1")
msg("Amira Haddad <amira@atlas.example.org>", "Wed, 02 Apr 2025 07:00:00 +0000",
    "Re: Atlas 2.4 released", "rel-4", """The Arabic announcement is at https://example.org/ar/الإصدار-2.4، thanks all.
""", reply="rel-3", refs=["rel-1", "rel-3"])
msg("Ivan Petrov <ivan@example.org>", "Thu, 03 Apr 2025 13:00:00 +0000",
    "Volunteers for Ukrainian and Vietnamese?", "vol-1", """Hi,

We have requests for Ukrainian (https://uk.wikipedia.org/wiki/Переклад) and
Vietnamese (https://vi.wikipedia.org/wiki/Dịch_thuật). Anyone? Sign up at
https://atlas.example.org/volunteer or write to volunteers@atlas.example.org.

Ivan
""")
msg("Nguyễn Văn An <an@example.vn>", "Thu, 03 Apr 2025 15:30:00 +0000",
    "Re: Volunteers for Ukrainian and Vietnamese?", "vol-2", """Chào Ivan,

Tôi có thể giúp dịch sang tiếng Việt. Bản nháp ở https://example.vn/atlas/bản-dịch.

An
""", reply="vol-1")

sys.stdout.buffer.write(b"\n".join(msgs))
