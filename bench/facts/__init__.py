"""A development set of facts that change (issue 40): generated conversations and notes, and how the search answers
about them (``manage.py eval_facts``)."""
