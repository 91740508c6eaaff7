"""Time on memories: validity (valid_from, valid_until), the reference time of relative dates, and the event dates
the content mentions with their span (GiST: a date window is an overlap condition)."""

import django.contrib.postgres.fields.ranges
import django.contrib.postgres.indexes
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('memories', '0016_source_ids_per_scope'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='memory',
            name='event_dates',
            field=models.JSONField(blank=True, default=list, help_text='ISO dates or {start, end} ranges.'),
        ),
        migrations.AddField(
            model_name='memory',
            name='event_span',
            field=django.contrib.postgres.fields.ranges.DateRangeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='memory',
            name='reference_time',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='memory',
            name='valid_from',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='memory',
            name='valid_until',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name='memory',
            index=django.contrib.postgres.indexes.GistIndex(condition=models.Q(('event_span__isnull', False)), fields=['event_span'], name='memory_event_span'),
        ),
        migrations.AddConstraint(
            model_name='memory',
            constraint=models.CheckConstraint(condition=models.Q(('valid_from__isnull', True), ('valid_until__isnull', True), ('valid_until__gt', models.F('valid_from')), _connector='OR'), name='memory_valid_until_after_from'),
        ),
    ]
