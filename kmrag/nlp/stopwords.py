"""The words that say nothing of what a text is about: the support check's, the reader's and retrieval's one list."""

from __future__ import annotations

STOP = frozenset("""
a an the and or but if then so of to in on at by for with from as into onto over under about after before
between through during without within than that this these those there here it its it's they them their he
him his she her we us our you your i me my is are was were be been being am do does did done has have had
having can could will would shall should may might must not no nor also very just only which who whom whose
what when where why how all any both each few more most other some such own same too s t what's
""".split())
