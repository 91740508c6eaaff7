"""Facts stated by structure rather than by a sentence: a record's "Label: value" fields (a directory entry, a CRM
card, a service catalogue, a tracker) and an e-mail signature. Pure: the extractor without a database."""

from datetime import date

import pytest

from graph.extraction.facts import extract_facts

TODAY = date(2025, 9, 1)


def facts(text: str, speaker: str | None = "Ana") -> set[tuple]:
    return {
        (fact.subject, fact.attribute, fact.value, fact.valid_until is not None)
        for fact in extract_facts(text, speaker=speaker, reference=TODAY)
    }


def test_a_directory_entry_states_each_field_of_the_person_its_heading_names():
    entry = (
        "Priya Raman\nTitle: Senior Data Engineer\nLocation: Lisbon, Portugal\nManager: Tomas Ek\n"
        "Languages: Portuguese, English"
    )
    assert facts(entry) == {
        ("Priya Raman", "job_title", "senior data engineer", False),
        ("Priya Raman", "lives_in", "Lisbon", False),
        ("Priya Raman", "reports_to", "Tomas Ek", False),
        ("Priya Raman", "speaks", "Portuguese", False),
        ("Priya Raman", "speaks", "English", False),
    }


def test_fields_on_one_line_and_several_entries_each_say_whom_they_are_about():
    table = "Name: Jo Bell | Company: Vantix | Role: VP of Sales\nName: Kai Moana | Company: Tallyfy | Manager: Jo Bell"
    assert facts(table) == {
        ("Jo Bell", "works_at", "Vantix", False),
        ("Jo Bell", "job_title", "vp of sales", False),
        ("Kai Moana", "works_at", "Tallyfy", False),
        ("Kai Moana", "reports_to", "Jo Bell", False),
    }


def test_a_catalogue_entry_and_a_tracker_state_owners_and_due_dates_of_the_thing_they_name():
    assert facts("Service: Ledger API\nOwner: Payments team\nOn-call: Ravi") == {
        ("Ledger API", "owned_by", "Payments", False)
    }
    assert facts("Project: Quartz\nLaunch date: 14 March 2026\nOwner: TBD") == {
        ("Quartz", "due_date", "2026-03-14", False)
    }


def test_an_earlier_value_is_history_and_a_value_not_decided_or_held_for_now_is_none():
    assert facts("Name: Jo Bell\nPrevious employer: Acme Corp\nTitle: Interim CTO\nManager: TBD") == {
        ("Jo Bell", "works_at", "Acme Corp", True)
    }


@pytest.mark.parametrize(
    "text",
    [
        "Location: Lisbon\nTitle: Staff Engineer",  # whom about? no name, no first person
        "Agenda: talk about Lisbon\nNotes: Noor to follow up",  # labels no attribute has
        "Name: Jo Bell\nLocation: near the coffee machine",  # no name after the label
        "Q: where do you live?\nA: Lisbon",
    ],
)
def test_a_record_that_does_not_say_whom_or_what_it_is_about_states_nothing(text):
    assert facts(text, speaker=None) == set()


def test_a_record_about_oneself_is_the_speakers():
    assert facts("About me\nBased in: Ghent\nPets: a beagle called Max") == {
        ("Ana", "lives_in", "Ghent", False),
        ("Ana", "has_pet", "Max", False),
    }
    assert facts("About me\nBased in: Ghent", speaker=None) == set()  # an assistant's note states nothing of "me"


def test_a_signature_states_its_writers_title_and_employer():
    mail = "Thanks for the quick turnaround!\n\nBest,\nNadia Okafor\nHead of Growth | Tallyfy\n+44 20 7946 0000"
    assert facts(mail) == {
        ("Nadia Okafor", "job_title", "head of growth", False),
        ("Nadia Okafor", "works_at", "Tallyfy", False),
    }
    assert facts("Regards,\nAcme Support Team") == set()
    assert facts("Thanks,\nJo Bell\nActing CTO, Vantix") == set()  # an acting role is no title


def test_a_team_joined_is_no_employer_but_the_one_left_for_it_was():
    assert facts("Esme joined the Data team from Shopify.") == {("Esme", "works_at", "Shopify", True)}


# --- a card said beside a name, a note's lines, a voice note ------------------------------------------------------


def test_a_card_beside_a_name_states_the_title_and_employer_whatever_the_sentence_does():
    assert facts("CRM: Met Ingrid Solberg (Head of Data, Fjordline) at the meetup; wants a demo.") == {
        ("Ingrid Solberg", "job_title", "head of data", False),
        ("Ingrid Solberg", "works_at", "Fjordline", False),
    }
    assert facts("Tomás Ruiz, Marketing Director at Calder Foods, prefers e-mail to calls.") == {
        ("Tomás Ruiz", "job_title", "marketing director", False),
        ("Tomás Ruiz", "works_at", "Calder Foods", False),
    }


@pytest.mark.parametrize(
    "text",
    [
        "Anselm (my manager) says the offsite is cancelled.",  # whose manager, not a title
        "so my dog Pip, he ate a whole sock, so I'm at the vet",  # a card's title comes first
        "Nobody on the call spoke Khmer, so we used an interpreter.",
    ],
)
def test_words_beside_a_name_that_are_no_card_state_no_title(text):
    assert not {fact for fact in facts(text) if fact[1] == "job_title"}


def test_a_note_line_opening_with_a_name_is_that_persons_own_word():
    notes = "Standup notes (Tue)\nNandor: moved to Győr over the weekend, all unpacked\nDev: sick"
    assert facts(notes, speaker="Ana") == {("Nandor", "lives_in", "Győr", False)}


def test_a_section_heading_before_a_sentence_is_read_past_and_a_name_before_a_colon_is_the_subject():
    assert facts("Reorg: Oskar and Liv now report to Hedda Berg.", speaker=None) == {
        ("Oskar", "reports_to", "Hedda Berg", False),
        ("Liv", "reports_to", "Hedda Berg", False),
    }
    assert facts("Falcon: slipped to 27 March 2026", speaker=None) == {("Falcon", "due_date", "2026-03-27", False)}


def test_a_voice_notes_fillers_and_stutters_do_not_hide_what_it_says():
    assert facts("so yeah um, I speak, uh, Swahili and Kikuyu at home") == {
        ("Ana", "speaks", "Swahili", False),
        ("Ana", "speaks", "Kikuyu", False),
    }
    assert facts("I am reporting now to Emeka Obi since the reorganisation") == {
        ("Ana", "reports_to", "Emeka Obi", False)
    }


def test_a_bio_goes_on_about_the_person_it_opened_with():
    bio = "Zsófia Ambrus is Chief Data Officer at Brightwell. She lives in Szeged and speaks Czech."
    assert facts(bio, speaker=None) == {
        ("Zsófia Ambrus", "job_title", "chief data officer", False),
        ("Zsófia Ambrus", "works_at", "Brightwell", False),
        ("Zsófia Ambrus", "lives_in", "Szeged", False),
        ("Zsófia Ambrus", "speaks", "Czech", False),
    }


def test_a_system_handed_over_is_owned_by_its_new_owner_and_was_by_the_old():
    said = "The Brackish pipeline was transferred from Data Platform to Kiri Waititi effective today."
    assert facts(said, speaker=None) == {
        ("Brackish pipeline", "owned_by", "Kiri Waititi", False),
        ("Brackish pipeline", "owned_by", "Data Platform", True),
    }


def test_a_table_states_each_row_under_its_headers_labels():
    table = "Name | Role | Location\nAsel Nur | Data Scientist | Almaty\nDaulet Sei | ML Engineer | Astana"
    assert facts(table, speaker=None) == {
        ("Asel Nur", "job_title", "data scientist", False),
        ("Asel Nur", "lives_in", "Almaty", False),
        ("Daulet Sei", "job_title", "ml engineer", False),
        ("Daulet Sei", "lives_in", "Astana", False),
    }


def test_a_trackers_earlier_value_in_brackets_is_the_value_before():
    assert facts("Project: Heron\nGA: 26 Aug 2025 (was 12 Aug 2025)", speaker=None) == {
        ("Heron", "due_date", "2025-08-26", False),
        ("Heron", "due_date", "2025-08-12", True),
    }


def test_a_schedule_lists_each_projects_day_and_no_event_month_or_undecided_one():
    schedule = (
        "Release calendar\n- Lumen 1.4: Tue 9 Dec 2025\n- Quill 0.9: 11 Dec 2025\n- Code freeze: 19 Dec 2025\n"
        "- Tarn: sometime in January\n- Moss: TBD"
    )
    assert facts(schedule, speaker=None) == {
        ("Lumen 1.4", "due_date", "2025-12-09", False),
        ("Quill 0.9", "due_date", "2025-12-11", False),
    }
    assert facts("Team lunch\n- Lumen 1.4: 9 Dec 2025", speaker=None) == set()  # no schedule by its heading


def test_a_project_and_its_day_either_side_of_a_dash_are_one_statement():
    assert facts("Roadmap: Heron 3 — release 13 June 2026.", speaker=None) == {
        ("Heron 3", "due_date", "2026-06-13", False)
    }


def test_what_a_bracket_says_of_a_system_and_where_a_contact_is_now():
    assert facts("On 3 June, Wayfinder (owned by Mobile Foundations) returned stale routes.", speaker=None) == {
        ("Wayfinder", "owned_by", "Mobile Foundations", False)
    }
    assert facts("Contact: Lea Brandt — formerly at Kestrel, now at Mossgrove Labs as Research Director") == {
        ("Lea Brandt", "works_at", "Kestrel", True),
        ("Lea Brandt", "works_at", "Mossgrove Labs", False),
        ("Lea Brandt", "job_title", "research director", False),
    }
    assert ("Petra Holm", "job_title", "head of it", False) in facts("Lead: Petra Holm, Head of IT at Larchmere.")


# --- what chat turns say in passing ---------------------------------------------------------------------------


def dated(text: str, speaker: str | None = "Ana") -> set[tuple]:
    return {
        (fact.subject, fact.attribute, fact.value, fact.valid_from, fact.valid_until, fact.negated)
        for fact in extract_facts(text, speaker=speaker, reference=TODAY)
    }


def test_a_manager_named_in_passing_is_given_whatever_the_turn_says_of_them():
    assert facts("my manager Ambrus wants the slides by Friday and nothing is ready") >= {
        ("Ana", "reports_to", "Ambrus", False)
    }
    assert facts("Zsófia's boss Nandor is away so she signs her own expenses") == {
        ("Zsófia", "reports_to", "Nandor", False)
    }
    # (a manager of before: whom one reported to, ended, never whom one reports to now)
    assert facts("my old manager Ambrus says hi") == {("Ana", "reports_to", "Ambrus", True)}
    assert facts("Nandor is my boss's boss, technically") == set()  # a skip-level


def test_who_someone_reports_to_said_the_ways_a_chat_says_it():
    assert facts("Nandor's been my manager since Monday, very calm so far") == {("Ana", "reports_to", "Nandor", False)}
    assert facts("Zsófia was my manager until 2022") == {("Ana", "reports_to", "Zsófia", True)}
    assert facts("new structure: I'm under Zsófia now instead of Nandor") == {
        ("Ana", "reports_to", "Zsófia", False),
        ("Ana", "reports_to", "Nandor", True),
    }
    assert dated("Ambrus no longer reports to me, from this week") == {
        ("Ambrus", "reports_to", "Ana", TODAY, None, True)
    }


def test_a_chat_drops_its_i_and_writes_languages_in_lower_case():
    assert facts("still living in Szeged, still cycling everywhere") == {("Ana", "lives_in", "Szeged", False)}
    assert facts("haha yes, been living in Győr since the spring") == {("Ana", "lives_in", "Győr", False)}
    assert facts("I do speak czech, I just never get to use it") == {("Ana", "speaks", "Czech", False)}


def test_a_stay_between_two_years_is_history_with_both_ends():
    assert dated("lived in Szeged from 2017 to 2021, great years") == {
        ("Ana", "lives_in", "Szeged", date(2017, 1, 1), date(2021, 12, 31), False)
    }


def test_sarcasm_states_nothing_and_a_corrected_day_never_held():
    assert facts("oh sure, and I'm the head chef at Brightwell now 🙄") == set()
    assert dated("Kestle beta is due Thursday 11 September 2025, not Friday", speaker=None) == {
        ("Kestle beta", "due_date", "2025-09-11", TODAY, None, False)
    }


# --- near misses: what looks like a statement and states nothing -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "does Zsófia have a cat or was that her sister",  # a question without its question mark
        "where does Nandor live these days",
        "Acting lead: Nandor Ambrus",  # an acting holder
        "Interim CFO: Zsófia Ambrus (through Q1).",
        "Candidate Zsófia Ambrus — interviewed for Head of Ops, offer pending.",
        "Thanks to Nandor from Brightwell, our integration partner, for testing the SDK.",
        "Ownership of the Quillon API moved from Fulfilment to Warehouse Tech as of today.",
    ],
)
def test_near_misses_state_no_fact_of_a_person(text):
    assert not {fact for fact in facts(text, speaker=None) if fact[1] != "owned_by"}


def test_a_department_on_a_card_is_no_employer_and_a_name_that_is_also_a_verb_is_a_name():
    assert facts("Zsófia Ambrus — Senior Accountant, Finance — reports to Nandor Kiss.", speaker=None) == {
        ("Zsófia Ambrus", "job_title", "senior accountant", False),
        ("Zsófia Ambrus", "reports_to", "Nandor Kiss", False),
    }
    assert facts("Will Ames moved to Szeged.", speaker=None) == {("Will Ames", "lives_in", "Szeged", False)}
    assert facts("May Chen joined Brightwell in March.", speaker=None) == {
        ("May Chen", "works_at", "Brightwell", False)
    }


def test_more_ways_of_saying_a_manager_a_deadline_and_an_employer():
    assert facts("Zsófia's manager changed from Nandor to Ambrus on 1 Oct.", speaker=None) == {
        ("Zsófia", "reports_to", "Ambrus", False),
        ("Zsófia", "reports_to", "Nandor", True),
    }
    assert facts("Deadline for Kestle v2 is 30 January 2026.", speaker=None) == {
        ("Kestle v2", "due_date", "2026-01-30", False)
    }
    assert facts("Nandor has worked at Ostby Freight since 2016 as a dispatcher.", speaker=None) == {
        ("Nandor", "works_at", "Ostby Freight", False),
        ("Nandor", "job_title", "dispatcher", False),
    }


# --- long texts: who a later sentence is about -------------------------------------------------------------------


def test_a_pronoun_goes_back_only_to_a_person_a_sentence_opened_with():
    story = "Bumped into Nandor at the airport. He lives in Szeged now and flies drones."
    assert not {fact for fact in facts(story, speaker=None) if fact[0] == "Bumped"}
    news = "Zsófia Ambrus served as CTO of Brightwell until 2022. She lives in Győr."
    assert ("Zsófia Ambrus", "lives_in", "Győr", False) in facts(news, speaker=None)


def test_relations_and_honorifics_before_a_name():
    bulletin = "Cousin Efa moved to Cardiff in August. Mr. Nandor Kiss joins us as Year 4 teacher."
    assert ("Efa", "lives_in", "Cardiff", False) in facts(bulletin, speaker=None)
    assert facts("Dr. Ambrus is the clinical director.", speaker=None) == {
        ("Dr. Ambrus", "job_title", "clinical director", False)
    }


def test_a_schedules_lines_that_ask_or_say_more_than_a_day_are_no_entries():
    readiness = "Release readiness — Kestle 1.0\nZsófia: Go/no-go for Kestle 1.0 on 31 March 2026?\nNandor: Go from QA."
    assert not {fact for fact in facts(readiness, speaker=None) if fact[1] == "due_date" and fact[0] == "Zsófia"}


def test_the_value_before_said_after_the_new_one_and_a_commute_said_in_passing():
    assert facts("First, I now report to Zsófia rather than to Nandor.") == {
        ("Ana", "reports_to", "Zsófia", False),
        ("Ana", "reports_to", "Nandor", True),
    }
    assert facts("Quillon is now owned by the Tisza team rather than Kestle.", speaker=None) == {
        ("Quillon", "owned_by", "Tisza", False),
        ("Quillon", "owned_by", "Kestle", True),
    }
    assert ("Ana", "job_title", "junior reservoir engineer", False) in facts(
        "I took a job with Brightwell in December and I'm now a junior reservoir engineer there."
    )
    assert facts("I'll be late, the commute from Győr is brutal on Mondays") == {("Ana", "lives_in", "Győr", False)}


def test_a_team_page_owns_what_it_lists_and_its_members_report_where_it_says():
    page = "Team page: Vashegy\nMission: keep money moving.\nOwns: Ledger API, Invoice Renderer\nSlack: #team-vashegy"
    assert facts(page, None) == {
        ("Ledger API", "owned_by", "Vashegy", False),
        ("Invoice Renderer", "owned_by", "Vashegy", False),
    }
    squad = (
        "Grid Forecasting squad (Halcyon)\nMembers (all report to Réka Tóth): Bence Kádár, Dorka Vass\n"
        "Owned systems: Nowcast"
    )
    assert facts(squad, None) == {
        ("Bence Kádár", "reports_to", "Réka Tóth", False),
        ("Dorka Vass", "reports_to", "Réka Tóth", False),
        ("Nowcast", "owned_by", "Grid Forecasting squad", False),
    }
    # a team page's "Team:" lists who is in it, not who owns it
    listed = "Team page: Vashegy\nOwns: ledger-api\nTeam: Bence Kádár, Dorka Vass"
    assert facts(listed, None) == {("ledger-api", "owned_by", "Vashegy", False)}


def test_an_hr_form_dates_its_facts_by_its_start_ends_an_employer_by_its_last_day_and_waits_for_a_later_start():
    assert dated(
        "ONBOARDING — Tisza Cloud\nName: Bence Kádár\nStart date: 5 February 2025\nReports to: Réka Tóth, CFO"
    ) == {
        ("Bence Kádár", "reports_to", "Réka Tóth", date(2025, 2, 5), None, False),
        ("Réka Tóth", "job_title", "cfo", date(2025, 2, 5), None, False),
        ("Bence Kádár", "works_at", "Tisza Cloud", date(2025, 2, 5), None, False),
    }
    leaver = "Leaver form\nEmployee: Bence Kádár\nCompany: Tisza Cloud\nLast working day: 28 June 2025"
    assert dated(leaver, None) == {("Bence Kádár", "works_at", "Tisza Cloud", TODAY, None, True)}
    transfer = (
        "Internal transfer form\nEmployee: Dorka Vass\nFrom manager: Réka Tóth\nTo manager: Bence Kádár\n"
        "Effective date: 3 March 2025"
    )
    assert dated(transfer, None) == {
        ("Dorka Vass", "reports_to", "Réka Tóth", None, date(2025, 3, 3), False),
        ("Dorka Vass", "reports_to", "Bence Kádár", date(2025, 3, 3), None, False),
    }
    assert dated("Onboarding record\nEmployee: Dorka Vass\nStart: 1 December 2025\nCompany: Tisza Cloud", None) == set()
    assert dated("Onboarding record\nEmployee: Dorka Vass\nCompany: Tisza Cloud\nStatus: awaiting start", None) == set()
    assert ("Dorka Vass", "lives_in", "Eger", TODAY, None, False) in dated(
        "New starter form\nFull name: Dorka Vass\nHome address (city): Eger"
    )


def test_a_markdown_table_of_things_names_each_as_written_and_dates_it_under_a_date_column():
    matrix = (
        "Ownership matrix\n| System | Owner | On-call rota |\n|---|---|---|\n| Zirc auth | Team Vashegy | Vashegy |"
    )
    assert facts(matrix, None) == {("Zirc auth", "owned_by", "Team Vashegy", False)}
    roadmap = (
        "## Q3 roadmap check-in\n| Item | Owner | Status | Date |\n|---|---|---|---|\n"
        "| Kestle offline mode | Team Tisza | slipped | 2025-09-23 |"
    )
    assert facts(roadmap, None) == {
        ("Kestle offline mode", "owned_by", "Team Tisza", False),
        ("Kestle offline mode", "due_date", "2025-09-23", False),
    }


def test_a_candidates_card_says_what_they_do_now_beside_an_offer_and_whom_call_notes_are_of():
    said = extract_facts(
        "Candidate: Mirela Dobos\nCurrently: QA Lead @ Tarnóc Labs (since 2022)\nPreviously: tester at Sorin Bank\n"
        "Location: Cluj\nLanguages: Romanian, Hungarian\nNotes: second interview done; offer pending",
        speaker=None,
        reference=TODAY,
    )
    assert {(fact.subject, fact.attribute, fact.value, fact.valid_from, fact.valid_until) for fact in said} == {
        ("Mirela Dobos", "job_title", "qa lead", date(2022, 1, 1), None),
        ("Mirela Dobos", "works_at", "Tarnóc Labs", date(2022, 1, 1), None),
        ("Mirela Dobos", "job_title", "tester", None, TODAY),
        ("Mirela Dobos", "works_at", "Sorin Bank", None, TODAY),
        ("Mirela Dobos", "lives_in", "Cluj", TODAY, None),
        ("Mirela Dobos", "speaks", "Romanian", TODAY, None),
        ("Mirela Dobos", "speaks", "Hungarian", TODAY, None),
    }
    # the post an offer is for is not held yet
    assert facts("Candidate: Mirela Dobos\nTitle: Head of QA\nStatus: offer pending", None) == set()
    notes = extract_facts(
        "Phone screen — Mirela Dobos\n"
        "• Currently: tester at Tarnóc Labs; been there 4 yrs; likes the team.\n• Lives in Cluj, won't relocate.",
        speaker=None,
        reference=TODAY,
    )
    assert {(fact.subject, fact.attribute, fact.value, fact.valid_from.year) for fact in notes} == {
        ("Mirela Dobos", "job_title", "tester", 2021),
        ("Mirela Dobos", "works_at", "Tarnóc Labs", 2021),
        ("Mirela Dobos", "lives_in", "Cluj", 2025),
    }
    # a lone word before a noun in a heading is a thing's name, not whom the notes are of
    assert facts("Planning notes — Zirc billing rollout\nLanguages: German, Czech", None) == set()


def test_a_message_signed_without_a_sign_off_and_a_cards_office_in_brackets():
    assert facts("Sounds good, I'll review it tonight.\n\nIlona Varga\nData Engineer · Kestle Labs", None) == {
        ("Ilona Varga", "job_title", "data engineer", False),
        ("Ilona Varga", "works_at", "Kestle Labs", False),
    }
    assert ("Ilona Varga", "works_at", "Kestle", False) in facts(
        "Best,\nIlona Varga\nHead of Data, Kestle (Pécs)", None
    )
    assert facts("See you there.\n\nBence Kádár", None) == set()


def test_a_resume_states_each_post_over_its_years_and_its_fields_are_its_owners():
    said = extract_facts(
        "BENCE KÁDÁR\nWork experience\n  Tisza Cloud — Staff Engineer (2021–present)\n"
        "  Vashegy Bank — Developer (2016–2021)\nLanguages: Hungarian, German",
        speaker=None,
        reference=TODAY,
    )
    assert {(fact.attribute, fact.value, fact.valid_from, fact.valid_until) for fact in said} == {
        ("works_at", "Tisza Cloud", date(2021, 1, 1), None),
        ("job_title", "staff engineer", date(2021, 1, 1), None),
        ("works_at", "Vashegy Bank", date(2016, 1, 1), date(2021, 12, 31)),
        ("job_title", "developer", date(2016, 1, 1), date(2021, 12, 31)),
        ("speaks", "Hungarian", TODAY, None),
        ("speaks", "German", TODAY, None),
    }
    assert {fact.subject for fact in said} == {"BENCE KÁDÁR"}


def test_a_catalogues_entries_name_the_things_their_owners_own():
    assert facts(
        "# services.yaml\n- name: zirc-api\n  owner: payments\n- name: quill-web\n  owner: web-core", None
    ) == {
        ("zirc-api", "owned_by", "payments", False),
        ("quill-web", "owned_by", "web-core", False),
    }


def test_a_codeowners_file_states_each_paths_owners_and_a_catalogue_may_name_its_entries_by_id():
    assert facts(
        "# CODEOWNERS\nservices/billing/   billing-core\n*.tf   @acme/infra Réka Tóth\ndocs/   Réka Tóth", None
    ) == {
        ("services/billing/", "owned_by", "billing-core", False),
        ("*.tf", "owned_by", "@acme/infra", False),
        ("*.tf", "owned_by", "Réka Tóth", False),
        ("docs/", "owned_by", "Réka Tóth", False),
    }
    assert facts(
        "services:\n  - id: zirc-tiles\n    owner: geo-core\n  - id: quill-eta\n    owner: eta-team", None
    ) == {
        ("zirc-tiles", "owned_by", "geo-core", False),
        ("quill-eta", "owned_by", "eta-team", False),
    }


def test_a_resumes_languages_section_and_tables_led_by_their_subjects_column_or_listing_things_and_days():
    said = facts(
        "RÉKA TÓTH\nEXPERIENCE\nData Analyst, Kestle Labs (2020–present)\n\nLANGUAGES\nHungarian (native), German",
        None,
    )
    assert said >= {("RÉKA TÓTH", "speaks", "Hungarian", False), ("RÉKA TÓTH", "speaks", "German", False)}
    assert facts("runner,city,languages\nIlona Varga,Eger,Hungarian;German\nBence Kádár,Pécs,Croatian", None) == {
        ("Ilona Varga", "lives_in", "Eger", False),
        ("Ilona Varga", "speaks", "Hungarian", False),
        ("Ilona Varga", "speaks", "German", False),
        ("Bence Kádár", "lives_in", "Pécs", False),
        ("Bence Kádár", "speaks", "Croatian", False),
    }
    assert facts(
        "| Release | Date | Comment |\n|---|---|---|\n| Zirc 2.0 | 2025-10-14 | ok |\n| Zirc 2.1 | TBD | |", None
    ) == {("Zirc 2.0", "due_date", "2025-10-14", False)}
    assert facts("city,population\nEger,60000\nPécs,140000", None) == set()


def test_a_document_of_one_system_names_it_first_and_a_form_s_dotted_leaders_are_colons():
    assert facts("Runbook: zirc-worker\nOwner: Tisza Ops (since 2024-02; previously Kestle Infra)", None) == {
        ("zirc-worker", "owned_by", "Tisza Ops", False),
        ("zirc-worker", "owned_by", "Kestle Infra", True),
    }
    assert facts("One-pager: Tiszaflow (partner invoicing)\nSponsor: Dorka Szabó · DRI: Réka Tóth", None) == {
        ("Tiszaflow", "owned_by", "Réka Tóth", False)
    }
    assert facts("Design doc: Kestrelline\n\nOwner ...... Bence Vass\nPhase ...... discovery", None) == {
        ("Kestrelline", "owned_by", "Bence Vass", False)
    }
    # an entry of a person is no system's
    person = facts("Entry: Réka Tóth\nManager: Bence Vass\nOwner: Dorka Szabó", None)
    assert not {fact for fact in person if fact[1] == "owned_by"}


def test_a_roster_of_languages_names_who_speaks_each():
    roster = "Call rota — May\nSlovak: Réka Tóth\nPolish: Réka Tóth, Bence Vass\nCzech: vacant — ask HR"
    assert facts(roster, None) == {
        ("Réka Tóth", "speaks", "Slovak", False),
        ("Réka Tóth", "speaks", "Polish", False),
        ("Bence Vass", "speaks", "Polish", False),
    }


def test_an_org_chart_s_line_of_those_reporting_to_one_manager():
    chart = "Finance team\nCFO: Réka Tóth\nReporting to Réka: Bence Vass (Treasurer), Dorka Szabó (Payroll Lead)"
    assert {fact for fact in facts(chart, None) if fact[1] == "reports_to"} == {
        ("Bence Vass", "reports_to", "Réka", False),
        ("Dorka Szabó", "reports_to", "Réka", False),
    }


def test_an_org_chart_drawn_as_a_tree_and_a_root_s_own_post():
    tree = (
        "Analytics group:\n\nRéka Tóth — Head of Data\n├── Bence Vass — Data Analyst\n└── Dorka Szabó — Head of ML\n"
        "    └── Ilona Kiss — ML Engineer"
    )
    assert {fact for fact in facts(tree, None) if fact[1] == "reports_to"} == {
        ("Bence Vass", "reports_to", "Réka Tóth", False),
        ("Dorka Szabó", "reports_to", "Réka Tóth", False),
        ("Ilona Kiss", "reports_to", "Dorka Szabó", False),
    }


def test_a_day_s_label_under_a_plan_is_no_project():
    said = facts("Zirc 4 launch checklist\n- Release date: 2 Oct\n- Docs: ready", None)
    assert said and not {fact for fact in said if fact[0].casefold() == "release date"}
