"""Django's admin app with the platform's site: entered club by club
(club/doors/admin_scope.py's ClubAdminSite). Kept apart from that module, which imports the
auth forms and so cannot load before the apps are ready."""

from django.contrib.admin.apps import AdminConfig


class ClubAdminConfig(AdminConfig):
    default_site = "club.doors.admin_scope.ClubAdminSite"
