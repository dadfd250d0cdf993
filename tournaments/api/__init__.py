"""The tournaments' REST API: serializers and views."""
