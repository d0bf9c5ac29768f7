#!/usr/bin/env python3
"""Imports a kubedrill .apkg into a fresh Anki collection, as Anki's File > Import does,
and prints what Anki made of it as JSON: every note's fields and tags, every card's deck,
type, queue, due, ivl, reps, lapses and FSRS memory state, and the review log's size.

Usage: anki_import.py PACKAGE.apkg  (needs the `anki` package: pip install anki)

tests/anki_export.rs runs it when KUBEDRILL_ANKI_PYTHON names a python with anki
installed. Exit 0 with the JSON on stdout, or 1 with Anki's error on stderr.
"""

import json
import os
import sys
import tempfile


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: anki_import.py PACKAGE.apkg", file=sys.stderr)
        return 2
    package = os.path.abspath(sys.argv[1])
    from anki.collection import (
        Collection,
        ImportAnkiPackageOptions,
        ImportAnkiPackageRequest,
    )
    from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition

    with tempfile.TemporaryDirectory() as tmp:
        col = Collection(os.path.join(tmp, "collection.anki2"))
        try:
            # As the import dialog with "Import any learning progress" ticked.
            col.set_config("fsrs", True)
            log = col.import_anki_package(
                ImportAnkiPackageRequest(
                    package_path=package,
                    options=ImportAnkiPackageOptions(
                        with_scheduling=True,
                        with_deck_configs=True,
                        merge_notetypes=False,
                        update_notes=ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER,
                        update_notetypes=ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER,
                    ),
                )
            )
            out = {
                "log": {
                    "new": len(log.log.new),
                    "updated": len(log.log.updated),
                    "duplicate": len(log.log.duplicate),
                    "conflicting": len(log.log.conflicting),
                    "first_field_match": len(log.log.first_field_match),
                    "missing_notetype": len(log.log.missing_notetype),
                    "missing_deck": len(log.log.missing_deck),
                    "empty_first_field": len(log.log.empty_first_field),
                },
                "days_elapsed": col.sched.today,
                "notes": [],
                "cards": [],
                "revlog": col.db.scalar("select count() from revlog"),
                "decks": sorted(d.name for d in col.decks.all_names_and_ids()),
            }
            for nid in col.find_notes(""):
                note = col.get_note(nid)
                out["notes"].append(
                    {
                        "guid": note.guid,
                        "notetype": note.note_type()["name"],
                        "fields": dict(note.items()),
                        "tags": note.tags,
                    }
                )
            for cid in col.find_cards(""):
                card = col.get_card(cid)
                mem = card.memory_state
                out["cards"].append(
                    {
                        "id": card.note()["Id"],
                        "deck": col.decks.name(card.did),
                        "type": card.type,
                        "queue": card.queue,
                        "due": card.due,
                        "ivl": card.ivl,
                        "left": card.left,
                        "reps": card.reps,
                        "lapses": card.lapses,
                        "stability": mem.stability if mem else None,
                        "difficulty": mem.difficulty if mem else None,
                        "revlog": len(col.card_stats_data(cid).revlog),
                    }
                )
            # Anki's own consistency check must find nothing to fix.
            problems, _ok = col.fix_integrity()
            out["check_database"] = problems
        finally:
            col.close()
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # noqa: BLE001 - any failure is the answer
        print(f"anki import failed: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
