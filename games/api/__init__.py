"""The games' REST API: serializers and views."""
