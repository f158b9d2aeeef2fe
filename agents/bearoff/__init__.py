"""The exact bear-off database: the chances of every race in which both sides are home.

============  ===================================================================
module        what it holds
============  ===================================================================
``tables``    the one-sided tables: every home arrangement and how fast it comes off
``store``     the database's file: where it lives, how it is written, checked, loaded
``database``  race positions and their exact outcome chances, batched
============  ===================================================================
"""
