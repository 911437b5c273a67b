#!/usr/bin/env python3
"""Writes the generated benchmark inputs of linkscan.

    python3 corpus/make_samples.py OUT_DIR [--shared DIR] [--mb N]

* prose.txt  -- link-free prose in many scripts (the paragraphs below, written for this
                project), repeated to about N MB: a text where a detector finds nothing.
* dense.txt  -- the official LinkDetectionTest.txt lines (marks removed) interleaved with
                the same prose, repeated to about N MB: links in every script, from
                Wikipedia titles with brackets to Arabic and Thai domains.

The test lines are read from SHARED/unicode/17.0.0/LinkDetectionTest.txt (SHARED defaults
to $LINKSCAN_SHARED, else ../shared beside the repository); they are not copied into the
repository. The output is deterministic.
"""

import argparse
import os
import pathlib

# Link-free paragraphs: no word follows a dot directly, so no top-level domain can.
PROSE = [
    "The archive grew every night, and by morning nobody could say which thread had "
    "started the argument. Some replies quoted the whole history; others answered a "
    "single line and moved on. Reading it felt like listening to a crowded room.",
    "Die Liste wuchs jede Nacht, und am Morgen wusste niemand mehr, welcher Faden den "
    "Streit begonnen hatte. Manche Antworten zitierten alles; andere nur eine Zeile.",
    "Chaque matin, la liste comptait des dizaines de nouveaux messages. On y parlait de "
    "pages de manuel, de correctifs et de vieilles habitudes qui ne meurent jamais.",
    "Каждое утро в архиве появлялись новые письма. Одни отвечали на всё сразу, другие "
    "цитировали одну строку и спорили о запятой. Так проходили недели.",
    "Κάθε πρωί το αρχείο είχε νέα μηνύματα. Κάποιοι απαντούσαν σε όλα, άλλοι σε μία "
    "μόνο γραμμή, και η συζήτηση συνεχιζόταν για μέρες.",
    "每天早上，邮件列表里都会多出几十封新邮件。有人回复整个讨论，有人只引用一行字，"
    "然后为一个逗号争论半天。这样的日子过了好几个星期。",
    "毎朝、アーカイブには新しいメッセージが届いていた。全部に返信する人もいれば、"
    "一行だけ引用して句読点について議論する人もいた。そうして何週間も過ぎた。",
    "매일 아침 보관함에는 새 메시지가 쌓였다. 어떤 사람은 모든 내용에 답했고, 어떤 사람은 "
    "한 줄만 인용해 쉼표 하나를 두고 논쟁했다.",
    "كل صباح كانت الرسائل الجديدة تملأ الأرشيف. بعضهم يرد على كل شيء، وبعضهم يقتبس سطرا "
    "واحدا ويجادل في فاصلة، وهكذا مرت الأسابيع.",
    "हर सुबह संग्रह में नए संदेश आते थे। कुछ लोग सब कुछ का जवाब देते, कुछ एक ही पंक्ति "
    "उद्धृत करके अल्पविराम पर बहस करते। ऐसे ही हफ़्ते बीत गए।",
    "ทุกเช้าจะมีข้อความใหม่เข้ามาในคลัง บางคนตอบทุกเรื่อง บางคนยกมาเพียงบรรทัดเดียว "
    "แล้วถกเถียงกันเรื่องเครื่องหมายจุลภาค",
    "Mỗi sáng kho lưu trữ lại có thêm thư mới. Có người trả lời tất cả, có người chỉ "
    "trích một dòng rồi tranh luận về một dấu phẩy suốt cả tuần.",
    "Numbers and punctuation too: 3.14 is not a link, nor is v2 or 1999; (parentheses), "
    "[brackets], «quotes» and dots at the end of a sentence stay plain text!",
]


def shared_dir(cli_value):
    if cli_value:
        return pathlib.Path(cli_value)
    if os.environ.get("LINKSCAN_SHARED"):
        return pathlib.Path(os.environ["LINKSCAN_SHARED"])
    return pathlib.Path(__file__).resolve().parent.parent.parent / "shared"


def test_lines(shared):
    path = shared / "unicode" / "17.0.0" / "LinkDetectionTest.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SystemExit(f"cannot read {path}: {e} (set LINKSCAN_SHARED or --shared)")
    lines = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            lines.append(line.replace("\u2e20", "").replace("\u2e21", ""))
    return lines


def repeat_to(parts, size):
    out, total, i = [], 0, 0
    while total < size:
        part = parts[i % len(parts)] + "\n"
        out.append(part)
        total += len(part.encode("utf-8"))
        i += 1
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--shared")
    parser.add_argument("--mb", type=int, default=8)
    args = parser.parse_args()
    size = args.mb << 20
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "prose.txt").write_text(repeat_to(PROSE, size), encoding="utf-8")
    lines = test_lines(shared_dir(args.shared))
    mixed = []
    for i, line in enumerate(lines):
        mixed.append(line)
        mixed.append(PROSE[i % len(PROSE)])
    (args.out / "dense.txt").write_text(repeat_to(mixed, size), encoding="utf-8")
    print(f"wrote {args.out / 'prose.txt'} and {args.out / 'dense.txt'}")


if __name__ == "__main__":
    main()
